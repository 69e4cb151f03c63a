/**
 * The **KeSi Plan** view (Explorer): the model's plan while a run lives (design.md §2.10).
 *
 * KeSi lists what it will do, item by item, and moves through the list as it works (the seed's
 * Day 01). Each `kesi/plan` replaces the rows; the view appears (context key `kesi.hasPlan`)
 * and is revealed without taking focus when a run's first plan arrives. When the run ends the
 * rows keep its final state (the description says the run ended) until the next run starts.
 */

import * as vscode from "vscode";
import { t } from "./core/messages";
import { planRows, type PlanRow } from "./core/plan";
import type { PlanParams } from "./core/protocol";
import { currentLocale } from "./locale";

export class PlanView implements vscode.Disposable, vscode.TreeDataProvider<PlanRow> {
  private rows: PlanRow[] = [];
  private plan: PlanParams | undefined;
  private runId: string | undefined;
  private readonly changed = new vscode.EventEmitter<PlanRow | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view = vscode.window.createTreeView("kesi.plan", {
    treeDataProvider: this,
    showCollapseAll: false,
  });

  /** A plan arrived for `runId`: show it (revealing the view for a run's first plan). */
  update(plan: PlanParams, title: string | undefined): void {
    const first = this.runId !== plan.runId;
    this.runId = plan.runId;
    this.plan = plan;
    this.rows = planRows(plan);
    this.view.title = title ? `KeSi Plan · ${title}` : "KeSi Plan";
    this.view.description = plan.title;
    void vscode.commands.executeCommand("setContext", "kesi.hasPlan", true);
    this.changed.fire(undefined);
    const top = this.rows[0];
    if (first && top) {
      // Reveal (open the Explorer on it) without moving the user's focus or selection.
      void this.view.reveal(top, { focus: false, select: false }).then(undefined, () => {});
    }
  }

  /** The plan's final state, for the run's last lines in the output channel. */
  planOf(runId: string): PlanParams | undefined {
    return this.runId === runId ? this.plan : undefined;
  }

  /** The run ended: keep its plan, say it is over. */
  finished(runId: string): void {
    if (this.runId === runId && this.plan && this.rows.length) {
      this.view.description = `${this.plan.title} · ${t("plan.finished", currentLocale())}`;
    }
  }

  /** A new run starts: its plan (if it makes one) replaces the old one; until then, none. */
  runStarted(runId: string): void {
    if (this.runId !== undefined && this.runId !== runId) {
      this.runId = undefined;
      this.plan = undefined;
      this.rows = [];
      this.view.description = undefined;
      void vscode.commands.executeCommand("setContext", "kesi.hasPlan", false);
      this.changed.fire(undefined);
    }
  }

  getTreeItem(row: PlanRow): vscode.TreeItem {
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon(
      row.icon,
      row.status === "completed" ? new vscode.ThemeColor("testing.iconPassed") : undefined,
    );
    item.tooltip = row.label;
    item.accessibilityInformation = { label: row.label };
    return item;
  }

  getChildren(row?: PlanRow): PlanRow[] {
    return row ? [] : this.rows;
  }

  getParent(): undefined {
    return undefined;
  }

  dispose(): void {
    this.view.dispose();
    this.changed.dispose();
  }
}
