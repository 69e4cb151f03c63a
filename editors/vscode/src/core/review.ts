/**
 * `kesi/reviewEdit` (design.md §2.7, step 1) as a diff editor: the proposed text beside the
 * current one, and a notification that asks Accept / Accept for This Session / Reject.
 *
 * Used when `kesi.review` is `diffEditor`; the default (`refactorPreview`) leaves the review
 * to VS Code's Refactor Preview of a `needsConfirmation` edit, with per-change checkboxes.
 */

import { t, type Locale } from "./messages";

export const REVIEW_SCHEME = "kesi-review";

export type Decision = "accept" | "acceptSession" | "reject";

export interface ReviewParams {
  runId: string;
  uri: string;
  path: string;
  before: string | null;
  after: string;
  diff?: string;
}

export function asReviewParams(value: unknown): ReviewParams | undefined {
  const v = value as Partial<ReviewParams> | null;
  if (
    typeof v !== "object" ||
    v === null ||
    typeof v.uri !== "string" ||
    typeof v.path !== "string" ||
    typeof v.after !== "string" ||
    !(typeof v.before === "string" || v.before === null || v.before === undefined)
  ) {
    return undefined;
  }
  return {
    runId: typeof v.runId === "string" ? v.runId : "",
    uri: v.uri,
    path: v.path,
    before: v.before ?? null,
    after: v.after,
    diff: typeof v.diff === "string" ? v.diff : undefined,
  };
}

/** Paths of the two virtual documents; the file name stays last so highlighting works. */
export function reviewPaths(id: number, path: string): { before: string; after: string } {
  const clean = path.replace(/^\/+/, "");
  return { before: `/${id}/before/${clean}`, after: `/${id}/after/${clean}` };
}

export interface ReviewChoices {
  accept: string;
  acceptSession: string;
  reject: string;
}

export function reviewChoices(locale: Locale): ReviewChoices {
  return {
    accept: t("review.accept", locale),
    acceptSession: t("review.acceptSession", locale),
    reject: t("review.reject", locale),
  };
}

/** The button the user pressed, as the server's decision; dismissing is a rejection. */
export function decisionFor(choice: string | undefined, choices: ReviewChoices): Decision {
  if (choice === choices.accept) {
    return "accept";
  }
  if (choice === choices.acceptSession) {
    return "acceptSession";
  }
  return "reject";
}

export function reviewTitle(params: ReviewParams, locale: Locale): string {
  return t(params.before === null ? "review.titleNew" : "review.title", locale, {
    path: params.path,
  });
}

export function reviewQuestion(params: ReviewParams, locale: Locale): string {
  return t(params.before === null ? "review.askNew" : "review.ask", locale, { path: params.path });
}
