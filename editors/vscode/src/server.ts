/**
 * Starts `kesi-lsp` over stdio with vscode-languageclient and wires KeSi's own messages.
 *
 * Everything standard (code actions, permission prompts, applyEdit and its Refactor Preview,
 * workspace/configuration) is vscode-languageclient's; this module adds the experimental
 * capability, the cancellable progress notification, the stream, and the save request. When
 * the server cannot run, KeSi's commands still exist and say why, instead of VS Code's
 * "command not found".
 */

import * as fs from "node:fs";
import * as os from "node:os";
import * as vscode from "vscode";
import {
  LanguageClient,
  RevealOutputChannelOn,
  ShowMessageRequest,
  State,
  type BaseLanguageClient,
  type ClientCapabilities,
  type FeatureState,
  type LanguageClientOptions,
  type MessageActionItem,
  type ServerOptions,
  type ShowMessageRequestParams,
  type StaticFeature,
} from "vscode-languageclient/node";
import { KesiCapabilities } from "./capabilities";
import { ChangesView } from "./changesView";
import { executeCommandMiddleware } from "./commands";
import { refreshOnOwnDiagnostics } from "./core/changes";
import { t } from "./core/messages";
import {
  DIAGNOSTICS,
  HUNKS,
  PLAN,
  REVIEW_EDIT,
  RUN_FINISHED,
  SAVE_DOCUMENTS,
  SERVER_COMMANDS,
  STREAM,
  TASKS,
  VERDICT,
} from "./core/protocol";
import { resolveServerPath, type Host } from "./core/serverPath";
import { asReviewMode, initializationOptions, serverSection } from "./core/settings";
import { EditorDiagnostics } from "./diagnostics";
import { HunkDecorations } from "./hunkDecorations";
import { currentLocale } from "./locale";
import type { KesiPanel } from "./panel";
import { RunProgress } from "./progress";
import { DiffReview } from "./review";
import type { Runs } from "./runs";
import { handleSaveDocuments } from "./saveHandler";
import type { KesiStatusBar } from "./statusBar";
import { TasksStatus } from "./tasksStatus";

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const host: Host = {
  platform: process.platform,
  env: process.env,
  home: os.homedir(),
  isExecutable,
};

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === "file")
    .map((folder) => folder.uri.fsPath);
}

export class KesiServer implements vscode.Disposable {
  // A plain channel: the server's stderr (tracebacks included) reads as it was written.
  readonly log = vscode.window.createOutputChannel("KeSi Server");
  private readonly trace = vscode.window.createOutputChannel("KeSi Server Trace");
  private readonly review: DiffReview;
  // Counting diagnostic updates starts with the extension, before any run asks.
  private readonly diagnostics = new EditorDiagnostics();
  private client: LanguageClient | undefined;
  /** The **KeSi Changes** view's data: the server's change sets (design.md §2.9). */
  readonly changes = new ChangesView(() => this.client);
  readonly tasks = new TasksStatus(() => this.client);
  /** Pending hunks drawn in the editor (`kesi/hunks`), instead of Problems entries. */
  private readonly hunks = new HunkDecorations();
  private placeholders: vscode.Disposable[] = [];
  private stopping = false;
  private whyNotRunning = "";
  private stopCheck: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly runs: Runs,
    private readonly status: KesiStatusBar,
    private readonly panel: KesiPanel,
  ) {
    this.review = new DiffReview(panel);
  }

  async start(): Promise<void> {
    const locale = currentLocale();
    const config = vscode.workspace.getConfiguration("kesi");
    const found = resolveServerPath(config.get<string>("serverPath") ?? "", folders(), host);
    if (!found.ok) {
      const reason =
        found.reason === "badSetting"
          ? t("server.badSetting", locale, { path: found.path })
          : t("server.notFound", locale, { tried: found.tried.join(", ") });
      this.notRunning(reason, true);
      return;
    }
    this.note(`starting ${found.path} (found via ${found.source})`);
    this.clearPlaceholders();
    const client = this.createClient(found.path);
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      // Give up on this process for good (no retries that could come back later), so the
      // explaining commands below never collide with the client's own.
      this.client = undefined;
      await client.dispose(2000).catch(() => undefined);
      const reason = error instanceof Error ? error.message : String(error);
      this.notRunning(t("server.failed", locale, { reason }), true);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) {
      return;
    }
    this.stopping = true;
    try {
      if (client.needsStop()) {
        await client.stop();
      }
    } catch (error) {
      this.note(`stopping kesi-lsp: ${String(error)}`);
    } finally {
      this.stopping = false;
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  private createClient(command: string): LanguageClient {
    const cwd = folders()[0];
    // No `transport`: stdio is the default, and naming it would append a `--stdio` argument.
    const serverOptions: ServerOptions = { command, options: cwd ? { cwd } : {} };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: "file" }],
      synchronize: { configurationSection: "kesi" },
      initializationOptions: initializationOptions(
        (key) => vscode.workspace.getConfiguration("kesi").get(key),
        globalValue,
      ),
      outputChannel: this.log,
      traceOutputChannel: this.trace,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      middleware: {
        executeCommand: executeCommandMiddleware(
          () => this.client,
          this.runs,
          () => void this.changes.refresh(),
        ),
        handleDiagnostics: refreshOnOwnDiagnostics(() => this.changes.refreshSoon()),
        workspace: {
          configuration: async (params, token, next) => {
            const answer = await next(params, token);
            if (!Array.isArray(answer)) {
              return answer;
            }
            return answer.map((value, index) =>
              params.items[index]?.section === "kesi" ? serverSection(value, globalValue) : value,
            );
          },
        },
      },
    };
    const client = new LanguageClient("kesi", "KeSi", serverOptions, clientOptions);
    const review = vscode.workspace.getConfiguration("kesi").get("review");
    const diffReview = asReviewMode(review) === "diffEditor";
    client.registerFeature(new KesiCapabilities(diffReview));
    if (diffReview) {
      client.onRequest(REVIEW_EDIT, (params: unknown, token) => this.review.handle(params, token));
    }
    client.registerFeature(
      new RunProgress(client, (message) => {
        this.status.setProgress(message);
        this.panel.setStatus(message ?? "");
      }),
    );
    client.registerFeature(new PanelQuestions(client, this.panel));
    client.onNotification(STREAM, (params: unknown) => this.runs.onStream(params));
    client.onNotification(RUN_FINISHED, (params: unknown) => {
      this.runs.onFinished(params);
      this.changes.refreshSoon();
    });
    client.onNotification(PLAN, (params: unknown) => this.runs.onPlan(params));
    client.onNotification(TASKS, (params: unknown) => this.tasks.onChanged(params));
    client.onNotification(VERDICT, (params: unknown) => {
      this.runs.onVerdict(params);
      this.changes.refreshSoon();
    });
    client.onNotification(HUNKS, (params: unknown) => {
      this.hunks.onHunks(params);
      this.changes.refreshSoon();
    });
    client.onRequest(DIAGNOSTICS, (params: unknown) => this.diagnostics.answer(client, params));
    client.onRequest(SAVE_DOCUMENTS, (params: unknown) => handleSaveDocuments(params));
    client.onDidChangeState(({ newState }) => {
      this.status.setServerRunning(newState === State.Running);
      this.changes.refreshSoon();
      if (newState === State.Stopped) {
        this.runs.serverStopped();
        this.tasks.serverStopped();
        this.hunks.clear();
        // A crash restart passes through Stopped; only a client still stopped a moment later
        // (and not stopped by us) has really gone away.
        clearTimeout(this.stopCheck);
        this.stopCheck = setTimeout(() => {
          if (this.client === client && !this.stopping && client.state === State.Stopped) {
            this.notRunning(t("server.stopped", currentLocale()), false);
          }
        }, 1000);
      }
    });
    return client;
  }

  /** KeSi's commands explain that the server is not running, with a way to fix it. */
  private notRunning(reason: string, announce: boolean): void {
    this.whyNotRunning = t("server.notRunning", currentLocale(), { reason });
    this.note(this.whyNotRunning);
    this.status.setServerRunning(false);
    if (this.placeholders.length === 0) {
      this.placeholders = SERVER_COMMANDS.map((id) =>
        vscode.commands.registerCommand(id, () => this.explain()),
      );
    }
    if (announce) {
      void this.explain();
    }
  }

  private async explain(): Promise<void> {
    const locale = currentLocale();
    const settings = t("action.openSettings", locale);
    const showLog = t("action.showLog", locale);
    const choice = await vscode.window.showErrorMessage(this.whyNotRunning, settings, showLog);
    if (choice === settings) {
      await vscode.commands.executeCommand("workbench.action.openSettings", "kesi.serverPath");
    } else if (choice === showLog) {
      this.log.show();
    }
  }

  private note(message: string): void {
    this.log.appendLine(`[KeSi ${new Date().toLocaleTimeString()}] ${message}`);
  }

  private clearPlaceholders(): void {
    for (const placeholder of this.placeholders) {
      placeholder.dispose();
    }
    this.placeholders = [];
  }

  dispose(): void {
    clearTimeout(this.stopCheck);
    this.clearPlaceholders();
    void this.stop();
    this.review.dispose();
    this.changes.dispose();
    this.tasks.dispose();
    this.hunks.dispose();
    this.diagnostics.dispose();
    this.log.dispose();
    this.trace.dispose();
  }
}

/**
 * The server's questions (`window/showMessageRequest`: a command's permission, Day 14's "Allow
 * it?") in the KeSi panel, with its buttons in its order, instead of a notification over the
 * work; a notification asks too only while the panel is hidden. Installed in `initialize`, after
 * vscode-languageclient's own handler, so this one stays.
 */
class PanelQuestions implements StaticFeature {
  constructor(
    private readonly client: BaseLanguageClient,
    private readonly panel: KesiPanel,
  ) {}

  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.window = {
      ...capabilities.window,
      showMessage: { messageActionItem: { additionalPropertiesSupport: false } },
    };
  }

  initialize(): void {
    this.client.onRequest(ShowMessageRequest.type, (params, token) => this.ask(params, token));
  }

  private async ask(
    params: ShowMessageRequestParams,
    token: vscode.CancellationToken,
  ): Promise<MessageActionItem | null> {
    const actions = params.actions ?? [];
    if (actions.length === 0) {
      void vscode.window.showInformationMessage(params.message);
      return null;
    }
    const lines = params.message.split("\n");
    const question = lines.length > 1 ? (lines.pop() ?? "") : "";
    const titles = actions.map((action) => action.title);
    const answer = await this.panel.question(
      { lines, question, actions: titles, cancel: titles[0] },
      token,
    );
    return actions.find((action) => action.title === answer) ?? null;
  }

  getState(): FeatureState {
    return { kind: "static" };
  }

  clear(): void {}
}

/** `kesi.<key>` from the user's global settings only, never a workspace or folder value. */
function globalValue(key: string): unknown {
  return vscode.workspace.getConfiguration("kesi").inspect(key)?.globalValue;
}
