/**
 * The KeSi panel's session, as entries: what the user reads in order, built from the server's
 * payloads (`kesi/stream`, `kesi/plan`, `kesi/runFinished`) and the questions KeSi asks.
 *
 * The server renders every line (design §2.13); this model only places them: model text is
 * gathered into one markdown entry per stretch of text, a tool call is one entry (its line,
 * then its result lines folded under it), the plan is one entry per run updated in place, a
 * question is an entry with the server's buttons until it is answered, and the run's end is its
 * verdict and bill. Pure, so it is tested without VS Code.
 */

import { renderedLines, type PlanParams, type RunFinished, type StreamEvent } from "./protocol";

export type Entry =
  | { kind: "run"; runId: string; title: string }
  | { kind: "you"; text: string }
  | { kind: "text"; runId: string; depth: number; text: string }
  | {
      kind: "tool";
      runId: string;
      id: string;
      depth: number;
      line: string;
      result: string[];
      error: boolean;
      done: boolean;
    }
  | { kind: "note"; runId: string; lines: string[] }
  | { kind: "plan"; runId: string; title: string; lines: string[]; current: string | null }
  | {
      kind: "question";
      id: string;
      runId?: string;
      lines: string[];
      question: string;
      actions: string[];
      answer?: string;
      cancel?: string;
      /** An edit review's hunks, each with the user's decision once made (inline review). */
      hunks?: ReviewHunk[];
    }
  | { kind: "end"; runId: string; status: string; line: string; lines: string[] };

/** A hunk of an edit under review, as the panel shows it. */
export interface ReviewHunk {
  header: string;
  shown: string[];
  accepted?: boolean;
}

/** What the panel should say while KeSi waits for the user, or undefined. */
export interface Waiting {
  id: string;
  what: "question" | "review";
  changes: number;
}

export class Transcript {
  readonly entries: Entry[] = [];
  private readonly live = new Set<string>();
  private readonly listeners: (() => void)[] = [];

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  get running(): boolean {
    return this.live.size > 0;
  }

  /** A run began (its command returned a run id, or its first event came). */
  runStarted(runId: string, title: string, prompt?: string): void {
    if (this.entries.some((entry) => entry.kind === "run" && entry.runId === runId)) {
      return;
    }
    if (prompt) {
      this.entries.push({ kind: "you", text: prompt });
    }
    this.entries.push({ kind: "run", runId, title });
    this.live.add(runId);
    this.changed();
  }

  event(event: StreamEvent, fallbackTitle: string): void {
    this.runStarted(event.runId, fallbackTitle);
    const depth = Math.max(0, event.depth ?? 0);
    switch (event.kind) {
      case "text": {
        const last = this.entries[this.entries.length - 1];
        if (last?.kind === "text" && last.runId === event.runId && last.depth === depth) {
          last.text += event.text;
        } else if (event.text.trim() !== "") {
          this.entries.push({ kind: "text", runId: event.runId, depth, text: event.text });
        }
        break;
      }
      case "toolStart": {
        const line = (event.line ?? "").trim();
        if (line !== "") {
          const id = event.toolUseId ?? `${this.entries.length}`;
          this.entries.push({
            kind: "tool",
            runId: event.runId,
            id,
            depth,
            line,
            result: [],
            error: false,
            done: false,
          });
        }
        break;
      }
      case "toolEnd": {
        const tool = this.tool(event.runId, event.toolUseId);
        const lines = renderedLines(event).map((line) => line.trim());
        if (tool) {
          tool.result = lines;
          tool.error = event.isError;
          tool.done = true;
        } else if (lines.length) {
          this.entries.push({ kind: "note", runId: event.runId, lines });
        }
        break;
      }
      case "turn":
      case "usage":
        return; // the status bar's tooltip, and the bill at the end
      default: {
        const lines = renderedLines(event);
        if (lines.length) {
          this.entries.push({ kind: "note", runId: event.runId, lines });
        }
      }
    }
    this.changed();
  }

  plan(plan: PlanParams, fallbackTitle: string): void {
    this.runStarted(plan.runId, fallbackTitle);
    const shown = {
      kind: "plan" as const,
      runId: plan.runId,
      title: plan.title ?? "",
      lines: plan.lines ?? plan.items.map((item) => item.content),
      current: plan.current ?? null,
    };
    const index = this.entries.findIndex((e) => e.kind === "plan" && e.runId === plan.runId);
    if (index >= 0) {
      this.entries[index] = shown; // updated in place, never printed again
    } else {
      this.entries.push(shown);
    }
    this.changed();
  }

  finished(finished: RunFinished, closing: string[], fallbackTitle: string): void {
    this.runStarted(finished.runId, fallbackTitle);
    this.live.delete(finished.runId);
    for (const entry of this.entries) {
      if (entry.kind === "question" && entry.runId === finished.runId && !entry.answer) {
        entry.answer = entry.cancel ?? "";
      }
      if (entry.kind === "tool" && entry.runId === finished.runId) {
        entry.done = true;
      }
    }
    this.entries.push({
      kind: "end",
      runId: finished.runId,
      status: finished.status,
      line: finished.line ?? finished.statusText ?? finished.status,
      lines: closing,
    });
    this.changed();
  }

  /** A question KeSi asks (a command's permission, an edit's review), with its buttons. */
  ask(question: Omit<Extract<Entry, { kind: "question" }>, "kind" | "answer">): void {
    this.entries.push({ kind: "question", ...question });
    this.changed();
  }

  /** The user accepted or rejected one hunk of an open review; false if there is no such hunk. */
  decideHunk(id: string, index: number, accepted: boolean): boolean {
    const hunk = this.question(id)?.hunks?.[index];
    if (!hunk || this.question(id)?.answer !== undefined) {
      return false;
    }
    hunk.accepted = accepted;
    this.changed();
    return true;
  }

  /** The question was answered (in the panel, a notification or by a cancel). */
  answered(id: string, answer: string): void {
    const entry = this.question(id);
    if (entry && entry.answer === undefined) {
      entry.answer = answer;
      this.changed();
    }
  }

  question(id: string): Extract<Entry, { kind: "question" }> | undefined {
    for (const entry of this.entries) {
      if (entry.kind === "question" && entry.id === id) {
        return entry;
      }
    }
    return undefined;
  }

  /** The open question, if any (the oldest first: runs wait in order). */
  openQuestion(): Extract<Entry, { kind: "question" }> | undefined {
    for (const entry of this.entries) {
      if (entry.kind === "question" && entry.answer === undefined) {
        return entry;
      }
    }
    return undefined;
  }

  /** The server went away: nothing runs, nothing waits. */
  serverStopped(): void {
    this.live.clear();
    for (const entry of this.entries) {
      if (entry.kind === "question" && entry.answer === undefined) {
        entry.answer = "";
      }
    }
    this.changed();
  }

  private tool(
    runId: string,
    id: string | undefined,
  ): Extract<Entry, { kind: "tool" }> | undefined {
    for (let index = this.entries.length - 1; index >= 0; index--) {
      const entry = this.entries[index];
      if (entry?.kind === "tool" && entry.runId === runId && entry.id === id) {
        return entry;
      }
    }
    return undefined;
  }

  private changed(): void {
    for (const listener of this.listeners) {
      listener();
    }
  }
}
