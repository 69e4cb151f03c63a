/**
 * `kesi/reviewEdit` (design.md §2.7, step 1) as a diff editor: the proposed text beside the
 * current one, and a notification that asks the server's question with the server's buttons,
 * in its order (Deny first) and its words (the seed's under zh-TW).
 *
 * Used when `kesi.review` is `diffEditor` (the default); `refactorPreview` leaves the review
 * to VS Code's Refactor Preview of a `needsConfirmation` edit, with per-change checkboxes.
 */

export const REVIEW_SCHEME = "kesi-review";

export type Decision = "accept" | "acceptSession" | "reject";

const DECISIONS: readonly string[] = ["accept", "acceptSession", "reject"];

/** One button of the review: the server's words, the decision it answers. */
export interface ReviewAction {
  title: string;
  decision: Decision;
}

export interface ReviewParams {
  runId: string;
  uri: string;
  path: string;
  before: string | null;
  after: string;
  diff?: string;
  title: string;
  question: string;
  /** What "Allow for this session" covers, in the server's words. */
  scope?: string;
  /** The proposed text's name, the diff tab's title ("KeSi's proposal: calc.py"); older
   * servers leave it out, and the tab then takes `title`. */
  proposal?: string;
  actions: ReviewAction[];
}

function asActions(value: unknown): ReviewAction[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    return undefined;
  }
  const actions: ReviewAction[] = [];
  for (const action of value as { title?: unknown; decision?: unknown }[]) {
    if (
      typeof action?.title !== "string" ||
      typeof action.decision !== "string" ||
      !DECISIONS.includes(action.decision)
    ) {
      return undefined;
    }
    actions.push({ title: action.title, decision: action.decision as Decision });
  }
  return actions;
}

export function asReviewParams(value: unknown): ReviewParams | undefined {
  const v = value as Partial<ReviewParams> | null;
  const actions = asActions(v?.actions);
  if (
    typeof v !== "object" ||
    v === null ||
    typeof v.uri !== "string" ||
    typeof v.path !== "string" ||
    typeof v.after !== "string" ||
    typeof v.title !== "string" ||
    typeof v.question !== "string" ||
    actions === undefined ||
    !(typeof v.before === "string" || v.before === null || v.before === undefined)
  ) {
    return undefined;
  }
  const scope = typeof v.scope === "string" ? { scope: v.scope } : {};
  const proposal = typeof v.proposal === "string" ? { proposal: v.proposal } : {};
  return {
    ...scope,
    ...proposal,
    runId: typeof v.runId === "string" ? v.runId : "",
    uri: v.uri,
    path: v.path,
    before: v.before ?? null,
    after: v.after,
    diff: typeof v.diff === "string" ? v.diff : undefined,
    title: v.title,
    question: v.question,
    actions,
  };
}

/** Paths of the two virtual documents; the file name stays last so highlighting works. */
export function reviewPaths(id: number, path: string): { before: string; after: string } {
  const clean = path.replace(/^\/+/, "");
  return { before: `/${id}/before/${clean}`, after: `/${id}/after/${clean}` };
}

/** The button the user pressed, as the server's decision; dismissing is a rejection. */
export function decisionFor(
  choice: string | undefined,
  actions: readonly ReviewAction[],
): Decision {
  return actions.find((action) => action.title === choice)?.decision ?? "reject";
}
