/**
 * The **KeSi** output channel, the **KeSi Plan** view and the run bookkeeping behind the status
 * bar: `kesi/stream`, `kesi/plan` and `kesi/runFinished` come in here; text is appended as it
 * streams.
 */

import * as vscode from "vscode";
import { asPlan, asRunFinished, asStreamEvent, type Usage } from "./core/protocol";
import { RunTracker } from "./core/runState";
import { StreamRenderer } from "./core/stream";
import { currentLocale } from "./locale";
import { PlanView } from "./plan";

export class Runs implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel("KeSi");
  readonly tracker = new RunTracker();
  readonly plan = new PlanView();
  private readonly renderer = new StreamRenderer(this.channel, currentLocale);
  private readonly titles = new Map<string, string>();

  /** The title of a run a command is starting, for events that come before its run id. */
  private expected: string | undefined;

  /** A command that starts a run is being sent: its run's events may come before its answer. */
  expect(title: string): void {
    this.expected = title;
  }

  /** A command returned a run id: title it in the channel and bring the channel up. */
  started(runId: string, title: string): void {
    this.expected = undefined;
    if (this.titles.has(runId)) {
      return; // its first event came first and titled it already
    }
    this.titles.set(runId, title);
    this.plan.runStarted(runId);
    this.renderer.runStarted(runId, title);
    this.tracker.started(runId);
    this.channel.show(true);
  }

  onStream(params: unknown): void {
    const event = asStreamEvent(params);
    if (event) {
      if (this.expected !== undefined && !this.titles.has(event.runId)) {
        this.started(event.runId, this.expected);
      }
      this.plan.runStarted(event.runId);
      this.renderer.event(event);
      this.tracker.event(event);
    }
  }

  onPlan(params: unknown): void {
    const plan = asPlan(params);
    if (plan) {
      this.plan.update(plan, this.titles.get(plan.runId));
    }
  }

  onFinished(params: unknown): void {
    const finished = asRunFinished(params);
    if (finished) {
      this.renderer.runFinished(finished, this.plan.planOf(finished.runId));
      this.plan.finished(finished.runId);
      this.tracker.finished(finished);
      this.titles.delete(finished.runId);
    }
  }

  sessionCost(usage: Usage): void {
    this.tracker.setSessionCost(usage);
  }

  serverStopped(): void {
    this.tracker.forgetRuns();
  }

  dispose(): void {
    this.plan.dispose();
    this.channel.dispose();
  }
}
