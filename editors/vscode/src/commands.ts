/**
 * KeSi's palette commands are the server's own commands (design.md §2.3): vscode-languageclient
 * registers every command the server announces under the same id, and this middleware sits in
 * front of them. A call that already carries its argument (the lightbulb's code action) goes
 * through as it is; a bare call from the palette gets its argument from the active editor or
 * an input box. Results are shown the way a user expects: a run reveals the KeSi channel,
 * the server's answers to cost, permissions, revoke and reset appear as notifications in its
 * own words, and a server error is an error message.
 */

import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  type BaseLanguageClient,
  type ExecuteCommandSignature,
} from "vscode-languageclient";
import { asChangeOutcome } from "./core/changes";
import { askArgs, fixThisArgs, runTitle, type EditorState } from "./core/commandArgs";
import { serverLines, t, type Locale } from "./core/messages";
import {
  asRunStarted,
  asUsage,
  isServerCommand,
  type CancelResult,
  type McpResult,
  type ServerCommand,
} from "./core/protocol";
import { currentLocale } from "./locale";
import type { Runs } from "./runs";

type Args = Record<string, unknown>;

function fileEditor(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor?.document.uri.scheme === "file" ? editor : undefined;
}

function editorState(client: BaseLanguageClient, editor: vscode.TextEditor): EditorState {
  const c2p = client.code2ProtocolConverter;
  const document = editor.document;
  return {
    uri: c2p.asUri(document.uri),
    selection: c2p.asRange(editor.selection),
    cursorLineLength: document.lineAt(editor.selection.active.line).text.length,
    diagnostics: c2p.asDiagnosticsSync(vscode.languages.getDiagnostics(document.uri)),
  };
}

/** The session a bookkeeping command is about: the active file's folder, else the first. */
function sessionArgs(client: BaseLanguageClient): Args {
  const editor = fileEditor();
  return editor ? { uri: client.code2ProtocolConverter.asUri(editor.document.uri) } : {};
}

/** The argument a bare palette call needs, or undefined when the user backed out. */
async function argumentFor(
  client: BaseLanguageClient,
  runs: Runs,
  command: ServerCommand,
  locale: Locale,
): Promise<Args | undefined> {
  const editor = fileEditor();
  switch (command) {
    case "kesi.fixThis":
      if (!editor) {
        const message = vscode.window.activeTextEditor ? "fix.notFile" : "fix.noEditor";
        void vscode.window.showWarningMessage(t(message, locale));
        return undefined;
      }
      return { ...fixThisArgs(editorState(client, editor)) };
    case "kesi.ask": {
      const prompt = await vscode.window.showInputBox({
        title: t("ask.prompt", locale),
        placeHolder: t("ask.placeholder", locale),
        ignoreFocusOut: true,
      });
      if (!prompt?.trim()) {
        return undefined;
      }
      return { ...askArgs(prompt.trim(), editor ? editorState(client, editor) : undefined) };
    }
    case "kesi.cancel": {
      const runId = runs.tracker.currentRunId;
      return runId ? { runId } : {};
    }
    case "kesi.mcpLogin":
    case "kesi.mcpLogout":
      return remoteServerArgs(client, command, locale);
    default:
      return sessionArgs(client);
  }
}

/** Which remote MCP server to sign in to (or out of): picked among the folder's http servers
 * as `kesi.mcp` lists them; undefined when there is none or the user backed out. */
async function remoteServerArgs(
  client: BaseLanguageClient,
  command: "kesi.mcpLogin" | "kesi.mcpLogout",
  locale: Locale,
): Promise<Args | undefined> {
  const session = sessionArgs(client);
  const listed = (await client.sendRequest(ExecuteCommandRequest.type, {
    command: "kesi.mcp",
    arguments: [session],
  })) as McpResult | undefined;
  const names = (listed?.servers ?? []).filter((s) => s.transport === "http").map((s) => s.name);
  if (names.length === 0) {
    info([t("mcp.noRemote", locale)]);
    return undefined;
  }
  const title = t(command === "kesi.mcpLogin" ? "mcp.pickLogin" : "mcp.pickLogout", locale);
  const picked =
    names.length === 1 ? names[0] : await vscode.window.showQuickPick(names, { title });
  return picked === undefined ? undefined : { ...session, server: picked };
}

function relativePath(uri: string): string {
  try {
    return vscode.workspace.asRelativePath(vscode.Uri.parse(uri, true), false);
  } catch {
    return uri;
  }
}

function info(lines: string[]): void {
  void vscode.window.showInformationMessage(lines.join(" · "));
}

/** The server's answer to /cost, /permissions, /revoke or /reset, as it words it (its locale). */
function say(result: unknown): void {
  const lines = serverLines(result);
  if (lines) {
    info(lines);
  }
}

/** `kesi.audit`: the server's lines in a read-only log document beside the editor. */
function showAudit(result: unknown): void {
  const lines = serverLines(result);
  if (!lines) {
    return;
  }
  void vscode.workspace
    .openTextDocument({ content: lines.join("\n") + "\n", language: "log" })
    .then((document) => vscode.window.showTextDocument(document, { preview: true }));
}

/** The title of the run `command` starts, if it starts one. */
function startingTitle(command: ServerCommand, args: Args, locale: Locale): string | undefined {
  switch (command) {
    case "kesi.fixThis":
    case "kesi.ask":
      return runTitle(command, args, relativePath, locale);
    case "kesi.compact":
      return t("run.title.compact", locale);
    default:
      return undefined;
  }
}

/** The user's own words for a run (the question asked, or the instruction to a fix), if any. */
function saidBy(command: ServerCommand, args: Args): string | undefined {
  const said = command === "kesi.ask" ? args.prompt : args.instruction;
  return (command === "kesi.ask" || command === "kesi.fixThis") && typeof said === "string"
    ? said
    : undefined;
}

/** Tell the user what the server answered. */
function present(
  runs: Runs,
  command: ServerCommand,
  args: Args,
  result: unknown,
  locale: Locale,
): void {
  switch (command) {
    case "kesi.fixThis":
    case "kesi.ask": {
      const started = asRunStarted(result);
      if (started) {
        const title = runTitle(command, args, relativePath, locale);
        runs.started(started.runId, title, saidBy(command, args));
      }
      break;
    }
    case "kesi.cancel":
      if ((result as CancelResult | undefined)?.cancelled !== true) {
        info([t("cancel.nothing", locale)]);
      }
      break;
    case "kesi.compact": {
      const started = asRunStarted(result);
      if (started) {
        runs.started(started.runId, t("run.title.compact", locale));
      }
      break;
    }
    case "kesi.cost": {
      const usage = asUsage(result);
      if (usage) {
        runs.sessionCost(usage);
      }
      say(result);
      break;
    }
    case "kesi.audit":
      showAudit(result);
      break;
    case "kesi.reset":
    case "kesi.permissions":
    case "kesi.revoke":
    case "kesi.mcpLogin": // the address to open is in the lines; the server also opens it
    case "kesi.mcpLogout":
      say(result);
      break;
    case "kesi.mcp": {
      // The folder's MCP servers, one pick item per line the server rendered (state, reason,
      // tools): a list to read, so picking an item does nothing more.
      const lines = serverLines(result);
      if (lines) {
        void vscode.window.showQuickPick(lines, { canPickMany: false, matchOnDetail: true });
      }
      break;
    }
    case "kesi.keep":
    case "kesi.undo":
    case "kesi.undoRun": {
      const outcome = asChangeOutcome(result);
      if (outcome) {
        const worry = outcome.failed.length > 0 || outcome.skipped.length > 0;
        const show = worry
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
        void show(outcome.message.split("\n").join(" · "));
      }
      break;
    }
  }
}

/**
 * "Fix this…": what KeSi should keep in mind, if anything (Enter alone: the server's default,
 * find the cause and fix it); undefined when the user backed out with Escape.
 */
async function withInstruction(arg: Args, locale: Locale): Promise<Args | undefined> {
  if (typeof arg.instruction === "string") {
    return arg;
  }
  const said = await vscode.window.showInputBox({
    title: t("fix.instruction", locale),
    placeHolder: t("fix.instructionPlaceholder", locale),
    ignoreFocusOut: true,
  });
  if (said === undefined) {
    return undefined;
  }
  return said.trim() ? { ...arg, instruction: said.trim() } : arg;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function executeCommandMiddleware(
  client: () => BaseLanguageClient | undefined,
  runs: Runs,
  changesTouched: () => void,
): (command: string, args: unknown[], next: ExecuteCommandSignature) => Promise<unknown> {
  return async (command, args, next) => {
    const languageClient = client();
    if (!isServerCommand(command) || !languageClient) {
      return next(command, args);
    }
    const locale = currentLocale();
    const given = args[0];
    let arg =
      typeof given === "object" && given !== null
        ? (given as Args)
        : await argumentFor(languageClient, runs, command, locale);
    if (arg && command === "kesi.fixThis") {
      arg = await withInstruction(arg, locale);
    }
    if (!arg) {
      return undefined;
    }
    const title = startingTitle(command, arg, locale);
    if (title !== undefined) {
      // the run's first event can come before this request's answer
      runs.expect(title, saidBy(command, arg));
    }
    let result: unknown;
    try {
      result = await languageClient.sendRequest(ExecuteCommandRequest.type, {
        command,
        arguments: [arg],
      });
    } catch (error) {
      void vscode.window.showErrorMessage(errorText(error));
      return undefined;
    }
    present(runs, command, arg, result, locale);
    if (command === "kesi.keep" || command === "kesi.undo" || command === "kesi.undoRun") {
      changesTouched();
    }
    return result;
  };
}
