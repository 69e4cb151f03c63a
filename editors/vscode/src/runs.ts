/**
 * Where a run's story goes: the **KeSi** panel (the session, rendered), the **KeSi** output
 * channel (the log, appended as it streams), the **KeSi Plan** view, and the run bookkeeping
 * behind the status bar: `kesi/stream`, `kesi/plan`, `kesi/runFinished` and `kesi/verdict`
 * come in here.
 */

import * as vscode from "vscode";
import {
  asPlan,
  asRunFinished,
  asStreamEvent,
  asVerdictChanged,
  type Usage,
} from "./core/protocol";
import { RunTracker } from "./core/runState";
import { t } from "./core/messages";
import { closingLines, StreamRenderer } from "./core/stream";
import { currentLocale } from "./locale";
import type { KesiPanel } from "./panel";
import { PlanView } from "./plan";

export class Runs implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel("KeSi");
  readonly tracker = new RunTracker();
  readonly plan = new PlanView();
  private readonly renderer = new StreamRenderer(this.channel, currentLocale);
  private readonly titles = new Map<string, string>();

  constructor(private readonly panel: KesiPanel) {}

  private fallback(): string {
    return t("run.title.other", currentLocale());
  }

  /** The title (and the user's words) of a run a command is starting, for events before its id. */
  private expected: { title: string; prompt?: string } | undefined;

  /** A command that starts a run is being sent: its run's events may come before its answer. */
  expect(title: string, prompt?: string): void {
    this.expected = { title, prompt };
  }

  /** A command returned a run id: title it, and bring the panel up (the focus stays put). */
  started(runId: string, title: string, prompt?: string): void {
    this.expected = undefined;
    if (this.titles.has(runId)) {
      return; // its first event came first and titled it already
    }
    this.titles.set(runId, title);
    this.plan.runStarted(runId);
    this.renderer.runStarted(runId, title);
    this.panel.transcript.runStarted(runId, title, prompt);
    this.tracker.started(runId);
    this.panel.reveal();
  }

  onStream(params: unknown): void {
    const event = asStreamEvent(params);
    if (event) {
      if (this.expected !== undefined && !this.titles.has(event.runId)) {
        this.started(event.runId, this.expected.title, this.expected.prompt);
      }
      this.plan.runStarted(event.runId);
      this.renderer.event(event);
      this.panel.transcript.event(event, this.fallback());
      this.tracker.event(event);
    }
  }

  onPlan(params: unknown): void {
    const plan = asPlan(params);
    if (plan) {
      this.plan.update(plan, this.titles.get(plan.runId));
      this.panel.transcript.plan(plan, this.fallback());
    }
  }

  onFinished(params: unknown): void {
    const finished = asRunFinished(params);
    if (finished) {
      this.renderer.runFinished(finished, this.plan.planOf(finished.runId));
      this.panel.transcript.finished(finished, closingLines(finished), this.fallback());
      this.plan.finished(finished.runId);
      this.tracker.finished(finished);
      this.titles.delete(finished.runId);
    }
  }

  /** `kesi/verdict`: the server's line in the log, the verdict in the status bar. */
  onVerdict(params: unknown): void {
    const changed = asVerdictChanged(params);
    if (changed) {
      this.channel.appendLine(changed.line);
      this.tracker.verdictChanged(changed.runId, changed.verified);
    }
  }

  sessionCost(usage: Usage): void {
    this.tracker.setSessionCost(usage);
  }

  serverStopped(): void {
    this.tracker.forgetRuns();
    this.panel.serverStopped();
  }

  dispose(): void {
    this.plan.dispose();
    this.channel.dispose();
  }
}
