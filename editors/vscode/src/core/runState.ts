/**
 * Which KeSi runs are alive and what the session has cost so far, for the status bar and for
 * "KeSi: Cancel" (which cancels the newest live run).
 */

import { formatUsd, t, type Locale } from "./messages";
import type { RunFinished, StreamEvent, Usage, Verdict } from "./protocol";
import type { Waiting } from "./transcript";

export class RunTracker {
  private readonly live: string[] = [];
  private readonly ended = new Set<string>();
  private cost: number | undefined;
  private verdict: Verdict | undefined;
  private verdictRun: string | undefined;
  private bill: string | undefined;
  private readonly listeners: (() => void)[] = [];

  /** Called whenever `running`, `currentRunId` or `sessionCostUsd` may have changed. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  get running(): boolean {
    return this.live.length > 0;
  }

  /** The newest run still going, if any. */
  get currentRunId(): string | undefined {
    return this.live[this.live.length - 1];
  }

  /** The server's verdict on the last run that ended (undefined: it had none). */
  get lastVerdict(): Verdict | undefined {
    return this.verdict;
  }

  /** The bill line (Day 18, the server's words) of the run that ended last, if it had one. */
  get lastBill(): string | undefined {
    return this.bill;
  }

  /** The session total reported last (undefined until the server reports one). */
  get sessionCostUsd(): number | undefined {
    return this.cost;
  }

  started(runId: string): void {
    if (!this.live.includes(runId) && !this.ended.has(runId)) {
      this.live.push(runId);
      this.changed();
    }
  }

  /** The newest round trip in words ("turn 2 of at most 20"), for the tooltip. */
  turn: string | undefined;

  /** Any stream event shows its run is alive; a usage event also brings the session total. */
  event(event: StreamEvent): void {
    this.started(event.runId);
    if (event.kind === "usage" && event.session) {
      this.setSessionCost(event.session);
    }
    if (event.kind === "turn" && !event.depth && event.label) {
      this.turn = event.label;
    }
  }

  finished(finished: RunFinished): void {
    this.ended.add(finished.runId);
    this.verdict = finished.verified ?? undefined;
    this.verdictRun = finished.runId;
    if (typeof finished.bill === "string" && finished.bill !== "") {
      this.bill = finished.bill;
    }
    const index = this.live.indexOf(finished.runId);
    if (index >= 0) {
      this.live.splice(index, 1);
    }
    this.changed();
  }

  /** `kesi/verdict`: the verdict of a run that ended changed (the user undid what its check
   * ran on); the idle status follows it when that run is the one it shows. */
  verdictChanged(runId: string, verdict: Verdict): void {
    if (runId === this.verdictRun) {
      this.verdict = verdict;
      this.changed();
    }
  }

  /** A fresh total from `kesi.cost` or a `usage` event. */
  setSessionCost(usage: Usage): void {
    this.cost = usage.costUsd;
    this.changed();
  }

  /** The server went away: none of its runs is alive any more. */
  forgetRuns(): void {
    for (const runId of this.live) {
      this.ended.add(runId);
    }
    this.live.length = 0;
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) {
      listener();
    }
  }
}

export interface StatusView {
  text: string;
  tooltip: string;
  /** The command a click runs. */
  command: "kesi.cancel" | "kesi.showOutput" | "kesi.showServerLog" | "kesi.showQuestion";
}

const VERDICT_ICON = {
  verified: "$(pass)",
  failed: "$(error)",
  unverified: "$(question)",
} as const;

/**
 * What the status bar item says, from the tracker's state and whether the server runs. While a
 * run works it carries the server's progress line (the plan's step, the tool, the cost), with
 * the model's round trip only in the tooltip; while KeSi waits for the user (a question, a
 * review) it says so and a click goes there. When the last run ended with a verdict, the idle
 * item says it (icon and word) and its tooltip why.
 */
export function statusView(
  state: {
    running: boolean;
    sessionCostUsd: number | undefined;
    lastBill?: string;
    lastVerdict?: Verdict;
    progress?: string;
    turn?: string;
    waiting?: Waiting;
  },
  serverRunning: boolean,
  locale: Locale,
): StatusView {
  const bill = state.lastBill ? `\n${state.lastBill}` : ""; // the last run's, as the server said it
  const cost = formatUsd(state.sessionCostUsd ?? 0);
  if (!serverRunning) {
    return {
      text: `$(warning) ${t("status.idle", locale)}`,
      tooltip: t("status.tooltip.stopped", locale),
      command: "kesi.showServerLog",
    };
  }
  const waiting = state.waiting;
  if (waiting) {
    const words =
      waiting.what === "question"
        ? t("status.waiting.question", locale)
        : waiting.changes === 1
          ? t("status.waiting.review1", locale)
          : t("status.waiting.review", locale, { count: waiting.changes });
    return {
      text: `$(bell-dot) ${words}`,
      tooltip: t("status.tooltip.waiting", locale),
      command: "kesi.showQuestion",
    };
  }
  if (state.running) {
    const turn = state.turn ? `\n${state.turn}` : "";
    const text = state.progress
      ? `$(loading~spin) KeSi · ${state.progress}`
      : `$(loading~spin) ${t("status.running", locale)} $${cost}`;
    return {
      text,
      tooltip: t("status.tooltip.running", locale, { cost }) + turn + bill,
      command: "kesi.cancel",
    };
  }
  const verdict = state.lastVerdict;
  if (verdict) {
    const word = verdict.text ?? verdict.status;
    const why = t("status.tooltip.verdict", locale, { verdict: word, detail: verdict.detail });
    return {
      text: `${VERDICT_ICON[verdict.status]} ${t("status.idle", locale)} · ${word} $${cost}`,
      tooltip: `${why}\n${t("status.tooltip.idle", locale, { cost })}${bill}`,
      command: "kesi.showOutput",
    };
  }
  return {
    text: `$(hubot) ${t("status.idle", locale)} $${cost}`,
    tooltip: t("status.tooltip.idle", locale, { cost }) + bill,
    command: "kesi.showOutput",
  };
}
