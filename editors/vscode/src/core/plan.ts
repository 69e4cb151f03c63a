/**
 * The model's plan (`kesi/plan`, design.md §2.10) as the extension shows it: rows of the
 * **KeSi Plan** view while the run lives, and lines of the output channel when it ends.
 * Pure: the view in `src/plan.ts` only hands these to VS Code.
 */

import { t, type Locale } from "./messages";
import type { PlanItem, PlanStatus } from "./protocol";

export const PLAN_MARK: Record<PlanStatus, string> = {
  completed: "✓",
  in_progress: "▶",
  pending: "○",
};

/** Codicons of the plan view's rows. */
export const PLAN_ICON: Record<PlanStatus, string> = {
  completed: "pass-filled",
  in_progress: "arrow-circle-right",
  pending: "circle-large-outline",
};

export interface PlanRow {
  label: string;
  icon: string;
  status: PlanStatus;
  /** "done", "in progress", "to do": what a screen reader says after the label. */
  description: string;
}

export function planDone(items: readonly PlanItem[]): number {
  return items.filter((item) => item.status === "completed").length;
}

/** "1/3 done", for the view's description. */
export function planSummary(items: readonly PlanItem[], locale: Locale): string {
  return t("plan.summary", locale, { done: planDone(items), total: items.length });
}

/** "step 2/3: Fix the sign", or undefined when no step is in progress. */
export function stepInProgress(items: readonly PlanItem[], locale: Locale): string | undefined {
  const index = items.findIndex((item) => item.status === "in_progress");
  const item = items[index];
  if (!item) {
    return undefined;
  }
  return t("plan.step", locale, { number: index + 1, total: items.length, content: item.content });
}

const STATUS_KEY = {
  completed: "plan.status.completed",
  in_progress: "plan.status.in_progress",
  pending: "plan.status.pending",
} as const;

export function planRows(items: readonly PlanItem[], locale: Locale): PlanRow[] {
  return items.map((item) => ({
    label: item.content,
    icon: PLAN_ICON[item.status],
    status: item.status,
    description: t(STATUS_KEY[item.status], locale),
  }));
}

/** The plan as output-channel lines: a title, then one marked line per step. */
export function planLines(items: readonly PlanItem[], locale: Locale): string[] {
  const title = t("plan.title", locale, { done: planDone(items), total: items.length });
  return [title, ...items.map((item) => `  ${PLAN_MARK[item.status]} ${item.content}`)];
}
