/** The status bar item: running state and session cost; a click cancels or shows the output. */

import * as vscode from "vscode";
import type { RunTracker } from "./core/runState";
import { statusView } from "./core/runState";
import { currentLocale } from "./locale";

export class KesiStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    "kesi.status",
    vscode.StatusBarAlignment.Left,
    0,
  );
  private serverRunning = false;

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

  update(): void {
    const view = statusView(this.tracker, this.serverRunning, currentLocale());
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.command = view.command;
  }

  dispose(): void {
    this.item.dispose();
  }
}
