/**
 * The diff-editor review of `kesi/reviewEdit`: the current text and KeSi's proposal side by
 * side (read-only virtual documents), and a notification with Accept / Accept for This
 * Session / Reject. Dismissing the notification, or the run being cancelled, rejects.
 */

import * as vscode from "vscode";
import {
  REVIEW_SCHEME,
  asReviewParams,
  decisionFor,
  reviewChoices,
  reviewPaths,
  reviewQuestion,
  reviewTitle,
  type Decision,
} from "./core/review";
import { currentLocale } from "./locale";

export class DiffReview implements vscode.Disposable {
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
    const locale = currentLocale();
    const paths = reviewPaths(++this.count, review.path);
    this.texts.set(paths.before, review.before ?? "");
    this.texts.set(paths.after, review.after);
    const before = vscode.Uri.from({ scheme: REVIEW_SCHEME, path: paths.before });
    const after = vscode.Uri.from({ scheme: REVIEW_SCHEME, path: paths.after });
    try {
      await vscode.commands.executeCommand(
        "vscode.diff",
        before,
        after,
        reviewTitle(review, locale),
        {
          preview: true,
        },
      );
      const choices = reviewChoices(locale);
      const cancelled = new Promise<undefined>((resolve) => {
        token.onCancellationRequested(() => resolve(undefined));
      });
      const answer = await Promise.race([
        vscode.window.showInformationMessage(
          reviewQuestion(review, locale),
          choices.accept,
          choices.acceptSession,
          choices.reject,
        ),
        cancelled,
      ]);
      return { decision: decisionFor(answer, choices) };
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
