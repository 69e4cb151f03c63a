/**
 * The palette commands and view buttons over KeSi's change sets (design.md §2.9): **KeSi: Show
 * Changes** (the **KeSi Changes** view), **KeSi: Keep All Changes**, and the Keep / Undo / open
 * buttons of the view's rows. **KeSi: Undo Last Run** is the server's own `kesi.undoRun`. Every
 * keep or undo goes through the server's command (so its answer is shown the same way as a
 * lens's) and the view asks again afterwards.
 */

import * as vscode from "vscode";
import { rowCommand, type ChangeNode, type ChangesView } from "./changesView";
import { beforeHunk } from "./core/changes";
import { t } from "./core/messages";
import { currentLocale } from "./locale";

const VIEW = "kesiChanges";

function activeFileUri(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor?.document.uri.scheme === "file" ? editor.document.uri.toString() : undefined;
}

/** The old sides of the hunk diffs opened, by path (a fresh path each time: VS Code keeps an
 * open virtual document's first text). */
const BEFORE_SCHEME = "kesi-before";
const befores = new Map<string, string>();
let opened = 0;

/** A hunk's row opens its diff: the file as it was before the hunk beside the file, at the
 * hunk; a hunk no longer there (undone, modified) or from an older server opens the file. */
async function openHunk(node: ChangeNode): Promise<void> {
  if (node.kind !== "hunk") {
    return;
  }
  const uri = vscode.Uri.parse(node.file.uri);
  const document = await vscode.workspace.openTextDocument(uri);
  const { start, end } = node.hunk.range;
  const range = new vscode.Range(start.line, start.character, end.line, end.character);
  const before = beforeHunk(document.getText(), node.hunk);
  if (before === undefined) {
    await vscode.window.showTextDocument(document, { selection: range, preview: true });
    return;
  }
  const left = vscode.Uri.from({ scheme: BEFORE_SCHEME, path: `/${++opened}/${node.file.path}` });
  befores.set(left.path, before);
  const title = t("changes.diffTitle", currentLocale(), { path: node.file.path });
  await vscode.commands.executeCommand("vscode.diff", left, uri, title, {
    selection: range,
    preview: true,
  });
}

export function registerChangeCommands(view: ChangesView): vscode.Disposable[] {
  const tree = vscode.window.createTreeView(VIEW, {
    treeDataProvider: view,
    showCollapseAll: true,
  });
  const run = (command: string, argument: Record<string, unknown>): Thenable<unknown> =>
    vscode.commands.executeCommand(command, argument);
  // The row the button is on; from a keybinding or the palette, the selected one.
  const onRow = (action: "keep" | "undo", node?: ChangeNode): Thenable<unknown> | undefined => {
    const target = node ?? tree.selection[0];
    if (target === undefined) {
      return undefined;
    }
    const { command, argument } = rowCommand(action, target);
    return run(command, argument);
  };
  return [
    vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, {
      provideTextDocumentContent: (uri) => befores.get(uri.path) ?? "",
    }),
    view,
    tree,
    tree.onDidChangeVisibility(({ visible }) => {
      if (visible) {
        void view.refresh();
      }
    }),
    vscode.commands.registerCommand("kesi.showChanges", async () => {
      await vscode.commands.executeCommand(`${VIEW}.focus`);
      await view.refresh();
    }),
    vscode.commands.registerCommand("kesi.keepAll", () => {
      const uri = activeFileUri();
      return run("kesi.keep", uri ? { uri, all: true } : { all: true });
    }),
    vscode.commands.registerCommand("kesi.view.refresh", () => view.refresh()),
    vscode.commands.registerCommand("kesi.view.open", (node: ChangeNode) => openHunk(node)),
    vscode.commands.registerCommand("kesi.view.keep", (node?: ChangeNode) => onRow("keep", node)),
    vscode.commands.registerCommand("kesi.view.undo", (node?: ChangeNode) => onRow("undo", node)),
  ];
}
