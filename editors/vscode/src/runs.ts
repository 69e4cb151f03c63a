/**
 * The **KeSi** output channel and the run bookkeeping behind the status bar: `kesi/stream`
 * and `kesi/runFinished` come in here; text is appended as it streams.
 */

import * as vscode from "vscode";
import { asRunFinished, asStreamEvent, type Usage } from "./core/protocol";
import { RunTracker } from "./core/runState";
import { StreamRenderer } from "./core/stream";
import { currentLocale } from "./locale";

export class Runs implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel("KeSi");
  readonly tracker = new RunTracker();
  private readonly renderer = new StreamRenderer(this.channel, currentLocale);

  /** A command returned a run id: title it in the channel and bring the channel up. */
  started(runId: string, title: string): void {
    this.renderer.runStarted(runId, title);
    this.tracker.started(runId);
    this.channel.show(true);
  }

  onStream(params: unknown): void {
    const event = asStreamEvent(params);
    if (event) {
      this.renderer.event(event);
      this.tracker.event(event);
    }
  }

  onFinished(params: unknown): void {
    const finished = asRunFinished(params);
    if (finished) {
      this.renderer.runFinished(finished);
      this.tracker.finished(finished);
    }
  }

  sessionCost(usage: Usage): void {
    this.tracker.setSessionCost(usage);
  }

  serverStopped(): void {
    this.tracker.forgetRuns();
  }

  dispose(): void {
    this.channel.dispose();
  }
}
