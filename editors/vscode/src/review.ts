/**
 * The diff-editor review of `kesi/reviewEdit`: the current text and KeSi's proposal side by
 * side (read-only virtual documents), under the server's title, and the server's question and
 * buttons, in its order (Deny first), in the KeSi panel beside it (a notification only while
 * the panel is hidden). Dismissing the notification, or the run being cancelled, rejects.
 */

import * as vscode from "vscode";
import { diffHunks } from "./core/transcript";
import type { KesiPanel } from "./panel";
import {
  REVIEW_SCHEME,
  asReviewParams,
  decisionFor,
  reviewPaths,
  type Decision,
} from "./core/review";

export class DiffReview implements vscode.Disposable {
  constructor(private readonly panel: KesiPanel) {}

  private readonly texts = new Map<string, string>();
  private count = 0;
  private readonly provider = vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, {
    provideTextDocumentContent: (uri) => this.texts.get(uri.path) ?? "",
  });

  async handle(params: unknown, token: vscode.CancellationToken): Promise<{ decision: Decision }> {
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
      const answer = await this.panel.question(
        {
          runId: review.runId,
          lines: [review.title, ...(review.scope ? [review.scope] : [])],
          question: review.question,
          actions: review.actions.map((action) => action.title),
          cancel: review.actions.find((action) => action.decision === "reject")?.title,
          review: diffHunks(review.diff),
        },
        token,
      );
      return { decision: decisionFor(answer, review.actions) };
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
