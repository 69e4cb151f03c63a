/**
 * The diff-editor review of `kesi/reviewEdit` (the default `kesi.review`): the current text and
 * KeSi's proposal side by side (read-only virtual documents), the proposal shown at once,
 * under the server's name for it ("KeSi's proposal: calc.py"), with Reject and Accept as code lenses over each hunk in the
 * proposed side, as Copilot's Keep / Undo sit in the editor (VS Code shows lenses in a diff
 * editor only with `diffEditor.codeLens` on; the extension does not turn it on, since that would
 * show every extension's lenses in every diff, Git's included: it is the user's choice, and the
 * panel's per-hunk buttons decide the same hunks without it); and the server's question and
 * buttons, in its order (Deny first), in the KeSi panel beside it (a notification only while
 * the panel is hidden). A hunk decided by a lens is decided in the panel too, and the other
 * way round; once every hunk is decided, that is the answer. Dismissing the notification, or
 * the run being cancelled, rejects. KeSi waits for you (the status bar says so) while it is open.
 */

import * as vscode from "vscode";
import { applyHunks, parseHunks, proposedLine, type Hunk } from "./core/hunks";
import { t } from "./core/messages";
import { currentLocale } from "./locale";
import type { KesiPanel, PanelAnswer } from "./panel";
import {
  REVIEW_SCHEME,
  asReviewParams,
  decisionFor,
  reviewPaths,
  type Decision,
  type ReviewParams,
} from "./core/review";

export const DECIDE_HUNK = "kesi.review.decideHunk";

/** An open review's proposed side: its panel question and hunks. */
interface Open {
  question?: string;
  hunks: Hunk[];
}

export class DiffReview implements vscode.Disposable {
  constructor(private readonly panel: KesiPanel) {
    this.subscriptions.push(
      panel.onHunks(() => this.lensesChanged.fire()),
      vscode.languages.registerCodeLensProvider({ scheme: REVIEW_SCHEME }, this.lenses),
      vscode.commands.registerCommand(DECIDE_HUNK, (path: string, index: number, accept: boolean) =>
        this.decide(path, index, accept),
      ),
    );
  }

  private readonly texts = new Map<string, string>();
  private readonly open = new Map<string, Open>();
  private count = 0;
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  private readonly lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: this.lensesChanged.event,
    provideCodeLenses: (document) => this.lensesOf(document),
  };
  private readonly subscriptions: vscode.Disposable[] = [this.lensesChanged];
  private readonly provider = vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, {
    provideTextDocumentContent: (uri) => this.texts.get(uri.path) ?? "",
  });

  /** Reject, then Accept, over each hunk's first change in the proposed side (the decided one
   * marked); none once the review is answered. */
  private lensesOf(document: vscode.TextDocument): vscode.CodeLens[] {
    const path = document.uri.path;
    const open = this.open.get(path);
    const states = open?.question ? this.panel.hunkStates(open.question) : undefined;
    if (!open || !states) {
      return [];
    }
    const locale = currentLocale();
    const last = Math.max(0, document.lineCount - 1);
    return open.hunks.flatMap((hunk, index) => {
      const line = Math.min(proposedLine(hunk), last);
      const range = new vscode.Range(line, 0, line, 0);
      return [false, true].map((accept) => {
        const word = t(accept ? "panel.hunk.accept" : "panel.hunk.reject", locale);
        const mark = states[index] === accept ? (accept ? "✓ " : "✗ ") : "";
        return new vscode.CodeLens(range, {
          title: mark + word,
          command: DECIDE_HUNK,
          arguments: [path, index, accept],
        });
      });
    });
  }

  private decide(path: string, index: number, accept: boolean): void {
    const question = this.open.get(path)?.question;
    if (question !== undefined) {
      this.panel.decideHunk(question, index, accept);
    }
  }

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
      const tab = review.proposal ?? review.title;
      await vscode.commands.executeCommand("vscode.diff", before, after, tab, {
        preview: true,
      });
      const hunks = parseHunks(review.diff);
      const open: Open = { hunks };
      this.open.set(paths.after, open);
      const said = await this.panel.ask(
        {
          onAsked: (id) => {
            open.question = id;
            this.lensesChanged.fire();
          },
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
      this.open.delete(paths.after);
      await closeDiff(after);
      this.texts.delete(paths.before);
      this.texts.delete(paths.after);
    }
  }

  dispose(): void {
    this.provider.dispose();
    for (const subscription of this.subscriptions) {
      subscription.dispose();
    }
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
