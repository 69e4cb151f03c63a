/**
 * KeSi for VS Code: a thin client of `kesi-lsp`. The agent, its prompts and its edits live in
 * the server; this extension launches it, shows its stream and run state, and saves what it
 * asks to save.
 */

import * as vscode from "vscode";
import { registerChangeCommands } from "./changeCommands";
import { needsRestart } from "./core/settings";
import { Runs } from "./runs";
import { KesiServer } from "./server";
import { KesiStatusBar } from "./statusBar";

let server: KesiServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const runs = new Runs();
  const status = new KesiStatusBar(runs.tracker);
  server = new KesiServer(runs, status);
  const kesi = server;
  context.subscriptions.push(
    runs,
    status,
    kesi,
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

export async function deactivate(): Promise<void> {
  await server?.stop();
}
