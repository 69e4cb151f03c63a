/**
 * Shows the `kesi/stream` story in the **KeSi** output channel.
 *
 * The server renders every line of the story in the session's locale (design §2.13): a tool's
 * start and result with its detail, a search's lines and sub-total, notices, an applied edit
 * and its diff, the plan, the end of a run. This renderer only places them: model text is
 * appended exactly as it streams (a sub-agent's indented under the call that started it),
 * every other event's lines start lines of their own, and a rule with the run's title
 * separates runs. A call whose input is still arriving (`toolInput`, Day 17) shows the server's
 * progress line in place: each report replaces the last, and whatever comes next (the call's own
 * line) replaces it. It only knows a sink that appends and may replace its whole text (VS Code's
 * output channel does both), which keeps it testable without VS Code.
 */

import { t, type Locale } from "./messages";
import { renderedLines, type PlanParams, type RunFinished, type StreamEvent } from "./protocol";

export interface Sink {
  append(text: string): void;
  /** Replace everything shown (without it, progress lines are not shown). */
  replace?(text: string): void;
}

export const MARK = {
  rule: "━━", // U+2501: VS Code boxes U+2500 in output as an ambiguous character
} as const;

const INDENT = "    ";

/** The close of a run's story but its bill, which the run's last line carries. */
export function closingLines(finished: RunFinished): string[] {
  const bill = finished.bill;
  return (finished.lines ?? []).filter((line) => !(bill && line.includes(bill)));
}

export class StreamRenderer {
  private atLineStart = true;
  private written = false;
  private readonly announced = new Set<string>();
  /** Everything written but the in-place line (what `replace` restores). */
  private shown = "";
  /** The in-place line of a call whose input is still arriving, as it is shown. */
  private progress: string | undefined;

  constructor(
    private readonly sink: Sink,
    private readonly locale: () => Locale,
  ) {}

  /** A run began: a rule with its title separates it from the previous one. */
  runStarted(runId: string, title: string): void {
    if (this.announced.has(runId)) {
      return;
    }
    this.announced.add(runId);
    this.line(`${this.written ? "\n" : ""}${MARK.rule} ${title} ${MARK.rule}`);
  }

  event(event: StreamEvent): void {
    this.runStarted(event.runId, t("run.title.other", this.locale()));
    if (event.kind === "toolInput") {
      this.inPlace(event.line ?? "");
      return;
    }
    this.settle();
    if (event.kind === "text") {
      this.write(event.text, INDENT.repeat(Math.max(0, event.depth ?? 0)));
    } else {
      this.lines(renderedLines(event));
    }
  }

  /**
   * The run is over: the plan's final state, then the story's close as the server wrote it
   * (why it stopped, the verdict and its detail) and, in a rule, the run's last line (its
   * status, its verdict and the seed's bill, Day 18), which stands for the close's bill.
   */
  runFinished(finished: RunFinished, plan?: PlanParams): void {
    this.settle();
    this.runStarted(finished.runId, t("run.title.other", this.locale()));
    if (plan?.lines?.length) {
      this.lines([plan.title ?? "", ...plan.lines.map((line) => `  ${line}`)]);
    }
    this.lines(closingLines(finished));
    this.line(`${MARK.rule} ${finished.line ?? finished.status} ${MARK.rule}`);
    this.announced.delete(finished.runId);
  }

  /** Show `line` in place of the previous progress line (if any). */
  private inPlace(line: string): void {
    if (!this.sink.replace || line === "") {
      return;
    }
    this.progress = `${this.atLineStart ? "" : "\n"}${line}\n`;
    this.sink.replace(this.shown + this.progress);
  }

  /** The progress line gives way to what comes next. */
  private settle(): void {
    if (this.progress !== undefined && this.sink.replace) {
      this.progress = undefined;
      this.sink.replace(this.shown);
    }
  }

  private lines(lines: readonly string[]): void {
    if (lines.length) {
      this.line(lines.join("\n"));
    }
  }

  /** Append `text`; with `indent`, every line it starts is indented (a sub-agent's text). */
  private write(text: string, indent = ""): void {
    if (text === "") {
      return;
    }
    let shown = text;
    if (indent) {
      shown = shown.replace(/\n(?=.)/g, `\n${indent}`);
      if (this.atLineStart) {
        shown = indent + shown;
      }
    }
    this.sink.append(shown);
    this.shown += shown;
    this.written = true;
    this.atLineStart = text.endsWith("\n");
  }

  /** A whole line of its own, starting on a fresh line whatever the model text left open. */
  private line(text: string): void {
    this.write(`${this.atLineStart ? "" : "\n"}${text}\n`);
  }
}
