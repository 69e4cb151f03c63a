/**
 * Turns the `kesi/stream` story into the text of the **KeSi** output channel.
 *
 * Model text is appended exactly as it streams; tool calls, notices and the end of a run get
 * lines of their own with a marker in front, so a reader can tell the model's words from what
 * KeSi did. The renderer only knows an `append` sink, which keeps it testable without VS Code.
 */

import { formatUsd, runEndWord, t, verdictWord, type Locale } from "./messages";
import { planLines } from "./plan";
import type { PlanItem, RunFinished, StreamEvent } from "./protocol";

export interface Sink {
  append(text: string): void;
}

export const MARK = {
  tool: "⚙",
  ok: "✓",
  error: "✗",
  notice: "⚠",
  edit: "✎",
  rule: "━━", // U+2501: VS Code boxes U+2500 in output as an ambiguous character
} as const;

const VERDICT_MARK = { verified: "✓", failed: "✗", unverified: "?" } as const;

const DETAIL_MAX = 120;
const DIFF_MAX_LINES = 40;

function oneLine(text: string, max = DETAIL_MAX): string {
  const flat = text.replace(/\s*\r?\n\s*/g, " ⏎ ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The part of a tool's input a reader needs to follow along: the command, path or pattern. */
export function toolDetail(input: Record<string, unknown> | undefined): string {
  if (!input) {
    return "";
  }
  const text = (key: string): string | undefined =>
    typeof input[key] === "string" && input[key] !== "" ? (input[key] as string) : undefined;
  const command = text("command");
  if (command) {
    return oneLine(command);
  }
  if (Array.isArray(input.items)) {
    return ""; // the todo tool: the plan itself shows in the KeSi Plan view and its result line
  }
  const path = text("file_path") ?? text("path");
  const pattern = text("pattern") ?? text("query");
  if (pattern) {
    return oneLine(path ? `${pattern} · ${path}` : pattern);
  }
  if (path) {
    return oneLine(path);
  }
  const json = JSON.stringify(input);
  return json === "{}" ? "" : oneLine(json);
}

/** The diff of an applied edit, indented under its ✎ line, clipped to a screenful. */
export function indentDiff(diff: string): string {
  const body = diff.replace(/\n$/, "").split("\n");
  // The file names are in the ✎ line already; a removed line "-- x" stays ("--- x").
  while (body.length && /^(---|\+\+\+) /.test(body[0] ?? "")) {
    body.shift();
  }
  const shown = body.slice(0, DIFF_MAX_LINES).map((line) => `    ${line}`);
  if (body.length > DIFF_MAX_LINES) {
    shown.push(`    … ${body.length - DIFF_MAX_LINES} more lines`);
  }
  return `${shown.join("\n")}\n`;
}

export class StreamRenderer {
  private atLineStart = true;
  private written = false;
  private readonly announced = new Set<string>();

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
    switch (event.kind) {
      case "text":
        this.write(event.text);
        break;
      case "toolStart": {
        const detail = toolDetail(event.input);
        this.line(`${MARK.tool} ${event.tool}${detail ? `: ${detail}` : ""}`);
        break;
      }
      case "toolEnd": {
        const mark = event.isError ? MARK.error : MARK.ok;
        this.line(`  ${mark} ${oneLine(event.summary || event.tool, 400)}`);
        break;
      }
      case "notice":
        this.line(`${MARK.notice} ${event.text}`);
        break;
      case "edit":
        this.line(`${MARK.edit} ${event.path}`);
        if (event.diff) {
          this.write(indentDiff(event.diff));
        }
        break;
      case "usage": // the status bar shows it; the end-of-run line sums it up
      case "turn": // the progress notification shows it
        break;
    }
  }

  /**
   * The run is over: the server's words unless they just streamed, the plan's final state,
   * the server's verdict on the changes, then the status, verdict and cost as the run's last
   * line.
   */
  runFinished(finished: RunFinished, plan?: readonly PlanItem[]): void {
    const locale = this.locale();
    this.runStarted(finished.runId, t("run.title.other", locale));
    if (finished.status !== "done" && finished.text) {
      this.line(`${MARK.notice} ${finished.text}`);
    }
    if (plan?.length) {
      this.line(planLines(plan, locale).join("\n"));
    }
    const parts = [runEndWord(finished.status, locale)];
    const verdict = finished.verified;
    if (verdict) {
      const mark = VERDICT_MARK[verdict.status];
      const word = verdictWord(verdict.status, locale);
      this.line(`${mark} ${word}${verdict.detail ? `: ${verdict.detail}` : ""}`);
      parts.push(word);
    }
    if (finished.usage) {
      parts.push(`$${formatUsd(finished.usage.costUsd)}`);
    }
    this.line(`${MARK.rule} ${parts.join(" · ")} ${MARK.rule}`);
    this.announced.delete(finished.runId);
  }

  private write(text: string): void {
    if (text === "") {
      return;
    }
    this.sink.append(text);
    this.written = true;
    this.atLineStart = text.endsWith("\n");
  }

  /** A whole line of its own, starting on a fresh line whatever the model text left open. */
  private line(text: string): void {
    this.write(`${this.atLineStart ? "" : "\n"}${text}\n`);
  }
}
