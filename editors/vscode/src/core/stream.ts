/**
 * Turns the `kesi/stream` story into the text of the **KeSi** output channel.
 *
 * Model text is appended exactly as it streams; tool calls, notices and the end of a run get
 * lines of their own with a marker in front, so a reader can tell the model's words from what
 * KeSi did. A search sub-agent's text and tool calls are indented under the call that started
 * it, and its bill (the search's sub-total) follows that call's result; a summary of the
 * conversation is a bill line of its own. The renderer only knows an `append` sink, which
 * keeps it testable without VS Code.
 */

import { formatBill, formatUsd, runEndWord, t, verdictWord, type Locale } from "./messages";
import { planLines } from "./plan";
import type { PlanItem, RunFinished, StreamEvent, Usage } from "./protocol";

export interface Sink {
  append(text: string): void;
}

export const MARK = {
  tool: "⚙",
  ok: "✓",
  error: "✗",
  notice: "⚠",
  edit: "✎",
  info: "ℹ",
  bill: "$",
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
  const command = text("command") ?? text("task");
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

const INDENT = "    ";
const CALM_NOTICES = new Set(["resume", "compaction", "info"]);

export class StreamRenderer {
  private atLineStart = true;
  private written = false;
  private readonly announced = new Set<string>();
  /** The latest sub-total of each search still running, by the id of its tool call. */
  private readonly searches = new Map<string, Usage>();

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
    const indent = INDENT.repeat(Math.max(0, event.depth ?? 0));
    switch (event.kind) {
      case "text":
        this.write(event.text, indent);
        break;
      case "toolStart": {
        const detail = toolDetail(event.input);
        this.line(`${MARK.tool} ${event.tool}${detail ? `: ${detail}` : ""}`, indent);
        break;
      }
      case "toolEnd": {
        const mark = event.isError ? MARK.error : MARK.ok;
        this.line(`  ${mark} ${oneLine(event.summary || event.tool, 400)}`, indent);
        const subtotal = event.toolUseId ? this.searches.get(event.toolUseId) : undefined;
        if (event.toolUseId && subtotal) {
          this.searches.delete(event.toolUseId);
          this.line(`${MARK.bill} ${formatBill("bill.search", subtotal, this.locale())}`, INDENT);
        }
        break;
      }
      case "notice": {
        if (event.notice === "workspace" || event.notice === "sandbox") {
          this.line(`  ${event.text}`, indent); // Day 15's start-up lines, as the seed prints them
        } else {
          const mark = CALM_NOTICES.has(event.notice ?? "") ? MARK.info : MARK.notice;
          this.line(`${mark} ${event.text}`, indent);
        }
        break;
      }
      case "edit":
        this.line(`${MARK.edit} ${event.path}`, indent);
        if (event.diff) {
          this.write(indentDiff(event.diff));
        }
        break;
      case "usage":
        // The status bar shows the totals and the end-of-run line sums them up; a summary's
        // request is a line of its own, and a search's sub-total follows its tool call.
        if (event.purpose === "compaction" && event.request) {
          this.line(`${MARK.bill} ${formatBill("bill.compaction", event.request, this.locale())}`);
        }
        if (event.purpose === "search" && event.parentToolUseId && event.subtotal) {
          this.searches.set(event.parentToolUseId, event.subtotal);
        }
        break;
      case "turn": // the progress notification shows it
        break;
    }
  }

  /**
   * The run is over: the server's stop message unless that just streamed, the plan's final
   * state, the server's verdict on the changes, then the run's last line: its status, its
   * verdict and the seed's bill (Day 18), the server's words. An older server without a bill
   * gets the cost.
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
    const parts = [runEndWord(finished, locale)];
    const verdict = finished.verified;
    if (verdict) {
      const mark = VERDICT_MARK[verdict.status];
      const word = verdict.text ?? verdictWord(verdict.status, locale);
      this.line(`${mark} ${word}${verdict.detail ? `: ${verdict.detail}` : ""}`);
      parts.push(word);
    }
    if (typeof finished.bill === "string" && finished.bill !== "") {
      parts.push(finished.bill);
    } else if (finished.usage && finished.bill === undefined) {
      parts.push(`$${formatUsd(finished.usage.costUsd)}`);
    }
    this.line(`${MARK.rule} ${parts.join(" · ")} ${MARK.rule}`);
    this.announced.delete(finished.runId);
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
    this.written = true;
    this.atLineStart = text.endsWith("\n");
  }

  /** A whole line of its own, starting on a fresh line whatever the model text left open. */
  private line(text: string, indent = ""): void {
    this.write(`${this.atLineStart ? "" : "\n"}${indent}${text}\n`);
  }
}
