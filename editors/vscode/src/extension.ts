/**
 * KeSi for VS Code: a thin client of `kesi-lsp`. The agent, its prompts and its edits live in
 * the server; this extension launches it, shows its stream and run state, and saves what it
 * asks to save.
 */

import * as vscode from "vscode";
import { registerChangeCommands } from "./changeCommands";
import { needsRestart } from "./core/settings";
import { KesiPanel } from "./panel";
import { Runs } from "./runs";
import { KesiServer } from "./server";
import { KesiStatusBar } from "./statusBar";

let server: KesiServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const panel = new KesiPanel(context.extensionUri, {
    ask: (prompt) => void vscode.commands.executeCommand("kesi.ask", replyArgs(prompt)),
    cancel: () => void vscode.commands.executeCommand("kesi.cancel"),
  });
  const runs = new Runs(panel);
  const status = new KesiStatusBar(runs.tracker);
  panel.onWaiting((waiting) => status.setWaiting(waiting));
  server = new KesiServer(runs, status, panel);
  const kesi = server;
  context.subscriptions.push(
    panel,
    runs,
    status,
    kesi,
    vscode.commands.registerCommand("kesi.showQuestion", () => panel.showQuestion()),
    vscode.commands.registerCommand("kesi.showOutput", () => runs.channel.show(true)),
    vscode.commands.registerCommand("kesi.showServerLog", () => kesi.log.show()),
    vscode.commands.registerCommand("kesi.restartServer", () => kesi.restart()),
    ...registerChangeCommands(kesi.changes),
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration("kesi.locale")) {
        status.update();
      }
      if (needsRestart((section) => change.affectsConfiguration(section))) {
        void kesi.restart();
      }
    }),
  );
  await kesi.start();
}

/** A reply from the panel continues the conversation of the active file's folder. */
function replyArgs(prompt: string): { prompt: string; uri?: string } {
  const document = vscode.window.activeTextEditor?.document;
  return document?.uri.scheme === "file" ? { prompt, uri: document.uri.toString() } : { prompt };
}

export async function deactivate(): Promise<void> {
  await server?.stop();
}
