/**
 * The model's plan (`kesi/plan`, design.md §2.10) as rows of the **KeSi Plan** view. The server
 * words every row (`lines`, each with its status mark) and the plan's head (`title`); the
 * view only gives each row the icon of its status. Pure: `src/plan.ts` hands these to VS Code.
 */

import type { PlanParams, PlanStatus } from "./protocol";

/** Codicons of the plan view's rows. */
export const PLAN_ICON: Record<PlanStatus, string> = {
  completed: "pass-filled",
  in_progress: "arrow-circle-right",
  pending: "circle-large-outline",
};

export interface PlanRow {
  /** The server's line for the item, its status mark included (what a screen reader says). */
  label: string;
  icon: string;
  status: PlanStatus;
}

export function planRows(plan: PlanParams): PlanRow[] {
  return plan.items.map((item, index) => ({
    label: plan.lines?.[index] ?? item.content,
    icon: PLAN_ICON[item.status],
    status: item.status,
  }));
}
