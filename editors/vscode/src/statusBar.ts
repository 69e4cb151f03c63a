/** The status bar item: the run's step and cost, what KeSi waits for, the last verdict; a click
 * cancels the run, goes to the open question, or shows the output. */

import * as vscode from "vscode";
import type { RunTracker } from "./core/runState";
import type { Waiting } from "./core/transcript";
import { statusView } from "./core/runState";
import { currentLocale } from "./locale";

export class KesiStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    "kesi.status",
    vscode.StatusBarAlignment.Left,
    0,
  );
  private serverRunning = false;
  private progress: string | undefined;
  private waiting: Waiting | undefined;

  constructor(private readonly tracker: RunTracker) {
    this.item.name = "KeSi";
    tracker.onChange(() => this.update());
    this.update();
    this.item.show();
  }

  setServerRunning(running: boolean): void {
    this.serverRunning = running;
    this.update();
  }

  /** The server's progress line of the running run (undefined when it ended). */
  setProgress(message: string | undefined): void {
    this.progress = message;
    this.update();
  }

  /** What KeSi waits for from the user, if anything. */
  setWaiting(waiting: Waiting | undefined): void {
    this.waiting = waiting;
    this.update();
  }

  update(): void {
    const tracker = this.tracker;
    const state = {
      running: tracker.running,
      sessionCostUsd: tracker.sessionCostUsd,
      lastBill: tracker.lastBill,
      lastVerdict: tracker.lastVerdict,
      progress: tracker.running ? this.progress : undefined,
      turn: tracker.turn,
      waiting: this.waiting,
    };
    const view = statusView(state, this.serverRunning, currentLocale());
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.command = view.command;
  }

  dispose(): void {
    this.item.dispose();
  }
}
