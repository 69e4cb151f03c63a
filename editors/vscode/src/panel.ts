/**
 * The **KeSi** panel: a webview view in KeSi's own activity-bar container, holding the session
 * (design.md §2.13, issue 32). The explanation streams in as rendered markdown, each tool call
 * is one folded line, a question KeSi asks has the server's buttons in place, each run ends
 * with its verdict and bill, and the reply box continues the same conversation (`kesi.ask`).
 *
 * A question is asked here first; only while the panel is hidden does a notification ask too
 * (the first answer wins). The page is strict: a CSP allowing only this extension's script (by
 * nonce) and stylesheet, no remote content, the theme's colours.
 */

import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import { pageHtml, transcriptHtml } from "./core/panelHtml";
import { t } from "./core/messages";
import { Transcript, type ReviewHunk, type Waiting } from "./core/transcript";
import { currentLocale } from "./locale";

export const PANEL_VIEW = "kesi.panel";

export interface QuestionSpec {
  runId?: string;
  lines: string[];
  question: string;
  actions: string[];
  /** What a cancelled run's open question counts as (the safe answer). */
  cancel?: string;
  /** A review of `changes` changes rather than a question (the status bar says which). */
  review?: number;
  /** An edit review's hunks, each shown with its own Accept and Reject. */
  hunks?: Omit<ReviewHunk, "accepted">[];
  /** Told the question's id as it is asked (the diff editor's lenses decide its hunks). */
  onAsked?: (id: string) => void;
}

/** What the user answered: a button of the question, or (a review) one decision per hunk. */
export interface PanelAnswer {
  /** The button pressed; undefined when nothing was pressed (dismissed, cancelled, or every
   * hunk decided one by one). */
  answer: string | undefined;
  /** Per hunk: true accepted, false rejected, undefined not decided. */
  hunks: (boolean | undefined)[];
}

interface PanelActions {
  ask(prompt: string): void;
  cancel(): void;
}

export class KesiPanel implements vscode.WebviewViewProvider, vscode.Disposable {
  readonly transcript = new Transcript();
  private view: vscode.WebviewView | undefined;
  private readonly pending = new Map<string, (answer: PanelAnswer) => void>();
  private readonly reviews = new Map<string, number>();
  private count = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private status = "";
  private focusQuestion = false;
  private readonly waitingChanged = new vscode.EventEmitter<Waiting | undefined>();
  readonly onWaiting = this.waitingChanged.event;
  private readonly hunksChanged = new vscode.EventEmitter<string>();
  /** A review's hunk was decided, or the review answered (its id). */
  readonly onHunks = this.hunksChanged.event;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly actions: PanelActions,
  ) {
    this.registration = vscode.window.registerWebviewViewProvider(PANEL_VIEW, this, {
      webviewOptions: { retainContextWhenHidden: true },
    });
    this.transcript.onChange(() => this.renderSoon());
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, "media");
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    const nonce = randomBytes(16).toString("base64");
    view.webview.html = pageHtml(
      {
        script: view.webview.asWebviewUri(vscode.Uri.joinPath(media, "panel.js")).toString(),
        style: view.webview.asWebviewUri(vscode.Uri.joinPath(media, "panel.css")).toString(),
        cspSource: view.webview.cspSource,
      },
      nonce,
      currentLocale(),
    );
    view.webview.onDidReceiveMessage((message: unknown) => this.received(message));
    view.onDidChangeVisibility(() => this.renderSoon());
    view.onDidDispose(() => {
      this.view = undefined;
    });
  }

  get visible(): boolean {
    return this.view?.visible === true;
  }

  /** Bring the panel up without taking the user's focus from the editor. */
  reveal(): void {
    if (this.view) {
      this.view.show(true);
    } else {
      void vscode.commands
        .executeCommand(`${PANEL_VIEW}.focus`, { preserveFocus: true })
        .then(undefined, () => undefined);
    }
  }

  /** Go to the open question (the status bar's click while KeSi waits). */
  showQuestion(): void {
    this.focusQuestion = true;
    void vscode.commands.executeCommand(`${PANEL_VIEW}.focus`).then(
      () => this.renderSoon(),
      () => undefined,
    );
  }

  /** The server's progress line for the running run ("step 2 of 3: … · $0.01"). */
  setStatus(message: string): void {
    this.status = message;
    this.renderSoon();
  }

  /** Ask in the panel (and in a notification while the panel is hidden); undefined: no answer. */
  async question(
    spec: QuestionSpec,
    token?: vscode.CancellationToken,
  ): Promise<string | undefined> {
    return (await this.ask(spec, token)).answer;
  }

  /** Ask, and hear a review's per-hunk decisions too. */
  ask(spec: QuestionSpec, token?: vscode.CancellationToken): Promise<PanelAnswer> {
    const id = `q${++this.count}`;
    this.transcript.ask({
      id,
      runId: spec.runId,
      lines: spec.lines,
      question: spec.question,
      actions: spec.actions,
      cancel: spec.cancel,
      ...(spec.hunks?.length ? { hunks: spec.hunks.map((hunk) => ({ ...hunk })) } : {}),
    });
    if (spec.review !== undefined) {
      this.reviews.set(id, spec.review);
    }
    const answer = new Promise<PanelAnswer>((resolve) => this.pending.set(id, resolve));
    spec.onAsked?.(id);
    this.fireWaiting();
    if (!this.visible) {
      const message = [...spec.lines, spec.question].join("\n");
      void vscode.window
        .showWarningMessage(message, ...spec.actions)
        .then((choice) => this.answer(id, choice));
    }
    token?.onCancellationRequested(() => this.answer(id, undefined));
    return answer;
  }

  private answer(id: string, answer: string | undefined, said?: string): void {
    const resolve = this.pending.get(id);
    if (!resolve) {
      return;
    }
    const hunks = (this.transcript.question(id)?.hunks ?? []).map((hunk) => hunk.accepted);
    this.pending.delete(id);
    this.reviews.delete(id);
    this.transcript.answered(id, said ?? answer ?? "");
    resolve({ answer, hunks });
    this.fireWaiting();
    this.hunksChanged.fire(id);
  }

  /** Per hunk of an open review: true accepted, false rejected, undefined not decided. */
  hunkStates(id: string): (boolean | undefined)[] | undefined {
    return this.pending.has(id)
      ? (this.transcript.question(id)?.hunks ?? []).map((hunk) => hunk.accepted)
      : undefined;
  }

  /** One hunk decided (in the panel or by a lens of the diff editor); once every hunk is,
   * that is the review's answer. */
  decideHunk(id: string, index: number, accept: boolean): void {
    if (!this.pending.has(id) || !this.transcript.decideHunk(id, index, accept)) {
      return;
    }
    this.hunksChanged.fire(id);
    const hunks = this.transcript.question(id)?.hunks ?? [];
    if (hunks.every((hunk) => hunk.accepted !== undefined)) {
      const accepted = hunks.filter((hunk) => hunk.accepted).length;
      const said = t("panel.hunks.answered", currentLocale(), {
        accepted: String(accepted),
        total: String(hunks.length),
      });
      this.answer(id, undefined, said);
    }
  }

  /** What KeSi waits for now, if anything. */
  waiting(): Waiting | undefined {
    const open = [...this.pending.keys()][0];
    if (open === undefined) {
      return undefined;
    }
    const changes = this.reviews.get(open);
    return changes === undefined
      ? { id: open, what: "question", changes: 0 }
      : { id: open, what: "review", changes };
  }

  /** The server went away: its questions have no one to answer. */
  serverStopped(): void {
    for (const id of [...this.pending.keys()]) {
      this.answer(id, undefined);
    }
    this.transcript.serverStopped();
  }

  private fireWaiting(): void {
    this.waitingChanged.fire(this.waiting());
  }

  private received(message: unknown): void {
    const m = message as {
      type?: unknown;
      id?: unknown;
      answer?: unknown;
      prompt?: unknown;
      index?: unknown;
      accept?: unknown;
    };
    if (m?.type === "ready") {
      this.render();
    } else if (m?.type === "answer" && typeof m.id === "string" && typeof m.answer === "string") {
      this.answer(m.id, m.answer);
    } else if (
      m?.type === "hunk" &&
      typeof m.id === "string" &&
      typeof m.index === "number" &&
      typeof m.accept === "boolean"
    ) {
      this.decideHunk(m.id, m.index, m.accept);
    } else if (m?.type === "ask" && typeof m.prompt === "string" && m.prompt.trim()) {
      this.actions.ask(m.prompt.trim());
    } else if (m?.type === "cancel") {
      this.actions.cancel();
    }
  }

  private renderSoon(): void {
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.render();
      }, 50);
    }
  }

  private render(): void {
    const view = this.view;
    if (!view) {
      return;
    }
    const running = this.transcript.running;
    void view.webview.postMessage({
      type: "render",
      html: transcriptHtml(this.transcript.entries, currentLocale()),
      status: running ? this.status : "",
      running,
      focusQuestion: this.focusQuestion,
    });
    this.focusQuestion = false;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.serverStopped();
    this.registration.dispose();
    this.waitingChanged.dispose();
    this.hunksChanged.dispose();
  }
}
