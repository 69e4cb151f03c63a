/**
 * The diff-editor review of `kesi/reviewEdit`: the current text and KeSi's proposal side by
 * side (read-only virtual documents), under the server's title, and the server's question and
 * buttons, in its order (Deny first), in the KeSi panel beside it (a notification only while
 * the panel is hidden). Dismissing the notification, or the run being cancelled, rejects.
 */

import * as vscode from "vscode";
import { applyHunks, parseHunks, type Hunk } from "./core/hunks";
import type { KesiPanel, PanelAnswer } from "./panel";
import {
  REVIEW_SCHEME,
  asReviewParams,
  decisionFor,
  reviewPaths,
  type Decision,
  type ReviewParams,
} from "./core/review";

export class DiffReview implements vscode.Disposable {
  constructor(private readonly panel: KesiPanel) {}

  private readonly texts = new Map<string, string>();
  private count = 0;
  private readonly provider = vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, {
    provideTextDocumentContent: (uri) => this.texts.get(uri.path) ?? "",
  });

  async handle(params: unknown, token: vscode.CancellationToken): Promise<ReviewAnswer> {
    const review = asReviewParams(params);
    if (!review) {
      return { decision: "reject" };
    }
    const paths = reviewPaths(++this.count, review.path);
    this.texts.set(paths.before, review.before ?? "");
    this.texts.set(paths.after, review.after);
    const before = vscode.Uri.from({ scheme: REVIEW_SCHEME, path: paths.before });
    const after = vscode.Uri.from({ scheme: REVIEW_SCHEME, path: paths.after });
    try {
      await vscode.commands.executeCommand("vscode.diff", before, after, review.title, {
        preview: true,
      });
      const hunks = parseHunks(review.diff);
      const said = await this.panel.ask(
        {
          runId: review.runId,
          lines: [review.title, ...(review.scope ? [review.scope] : [])],
          question: review.question,
          actions: review.actions.map((action) => action.title),
          cancel: review.actions.find((action) => action.decision === "reject")?.title,
          review: Math.max(1, hunks.length),
          hunks: hunks.map((hunk) => ({ header: hunk.header, shown: hunk.shown })),
        },
        token,
      );
      return answerOf(review, hunks, said);
    } finally {
      await closeDiff(after);
      this.texts.delete(paths.before);
      this.texts.delete(paths.after);
    }
  }

  dispose(): void {
    this.provider.dispose();
  }
}

type ReviewAnswer = { decision: Decision; after?: string };

/**
 * The review's answer: the button pressed (Deny rejects every hunk; an Allow takes the hunks not
 * rejected), or, when every hunk was decided one by one, those decisions. Accepting only some
 * hunks answers with the text they make (`after`); accepting none is a rejection.
 */
function answerOf(review: ReviewParams, hunks: Hunk[], said: PanelAnswer): ReviewAnswer {
  const decided = said.hunks;
  let decision: Decision;
  if (said.answer === undefined && decided.length > 0 && decided.every((d) => d !== undefined)) {
    decision = decided.some((d) => d) ? "accept" : "reject";
  } else {
    decision = decisionFor(said.answer, review.actions);
  }
  if (decision === "reject" || !decided.some((d) => d === false)) {
    return { decision };
  }
  const after = applyHunks(
    review.before,
    hunks,
    hunks.map((_, index) => decided[index] !== false),
  );
  return after === (review.before ?? "") ? { decision: "reject" } : { decision, after };
}

async function closeDiff(after: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter(
      (tab) =>
        tab.input instanceof vscode.TabInputTextDiff &&
        tab.input.modified.toString() === after.toString(),
    );
  if (tabs.length) {
    await vscode.window.tabGroups.close(tabs);
  }
}
