/**
 * The **KeSi Changes** view (design.md §2.9): every run that changed files, newest first, its
 * files and their hunks, each with Keep and Undo. What it shows is the server's `kesi.changes`,
 * asked again whenever the server's pending hunks change (`kesi/hunks`; KeSi's own diagnostics
 * from a server that publishes them instead, not any other language server's), a run ends, or a
 * keep or undo is done.
 */

import * as vscode from "vscode";
import { ExecuteCommandRequest, type BaseLanguageClient } from "vscode-languageclient";
import {
  asChanges,
  hunkDescription,
  hunkLines,
  mergeListings,
  pendingCount,
  undoable,
  type FileInfo,
  type HunkInfo,
  type RunInfo,
} from "./core/changes";
import { t } from "./core/messages";
import { currentLocale } from "./locale";

export type ChangeNode =
  | { kind: "run"; run: RunInfo; folderUri: string }
  | { kind: "file"; run: RunInfo; file: FileInfo; folderUri: string }
  | { kind: "hunk"; run: RunInfo; file: FileInfo; hunk: HunkInfo; folderUri: string };

export class ChangesView implements vscode.TreeDataProvider<ChangeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ChangeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private runs: { run: RunInfo; folderUri: string }[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts every refresh that has come back: the tests wait on it. */
  refreshed = 0;

  constructor(private readonly client: () => BaseLanguageClient | undefined) {
    this.subscriptions.push(this.changed);
  }

  /** Ask the server again, once for a burst of changes. */
  refreshSoon(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, 150);
  }

  async refresh(): Promise<void> {
    const client = this.client();
    const folders = (vscode.workspace.workspaceFolders ?? []).filter(
      (f) => f.uri.scheme === "file",
    );
    const found: { run: RunInfo; folderUri: string }[] = [];
    if (client?.isRunning()) {
      for (const folder of folders) {
        const folderUri = client.code2ProtocolConverter.asUri(folder.uri);
        try {
          const answer: unknown = await client.sendRequest(ExecuteCommandRequest.type, {
            command: "kesi.changes",
            arguments: [{ uri: folderUri }],
          });
          for (const run of mergeListings([asChanges(answer)])) {
            found.push({ run, folderUri });
          }
        } catch {
          // A folder KeSi does not serve (yet): nothing to show for it.
        }
      }
    }
    this.runs = found;
    this.refreshed += 1;
    void vscode.commands.executeCommand("setContext", "kesi.hasChanges", found.length > 0);
    this.changed.fire(undefined);
  }

  getChildren(node?: ChangeNode): ChangeNode[] {
    if (!node) {
      return this.runs.map(({ run, folderUri }) => ({ kind: "run", run, folderUri }));
    }
    if (node.kind === "run") {
      return node.run.files.map((file) => ({ ...node, kind: "file", file }));
    }
    if (node.kind === "file") {
      return node.file.hunks.map((hunk) => ({ ...node, kind: "hunk", hunk }));
    }
    return [];
  }

  getTreeItem(node: ChangeNode): vscode.TreeItem {
    const item = this.describe(node);
    // A stable id: a row's Keep or Undo clicked while the view refreshes still reaches the
    // row's new element (without one, VS Code hands the command no element at all).
    item.id = rowId(node);
    return item;
  }

  private describe(node: ChangeNode): vscode.TreeItem {
    const locale = currentLocale();
    if (node.kind === "run") {
      // The server's row (what was asked, where, when, the verdict now), not its task text.
      const item = new vscode.TreeItem(
        node.run.label || node.run.task || node.run.runId,
        vscode.TreeItemCollapsibleState.Expanded,
      );
      const pending = pendingCount(node.run.files);
      item.description = pending ? t("changes.pending", locale, { n: pending }) : "";
      item.tooltip = `${node.run.task}\n${node.run.runId}`;
      item.contextValue = undoable(node.run) ? "kesiRun.undoable" : "kesiRun";
      item.iconPath = new vscode.ThemeIcon("history");
      return item;
    }
    if (node.kind === "file") {
      const item = new vscode.TreeItem(
        vscode.Uri.parse(node.file.uri),
        vscode.TreeItemCollapsibleState.Expanded,
      );
      item.label = node.file.path;
      const pending = pendingCount([node.file]);
      const what = node.file.deleted
        ? t("changes.deleted", locale)
        : node.file.created
          ? t("changes.created", locale)
          : "";
      item.description = [what, pending ? t("changes.pending", locale, { n: pending }) : ""]
        .filter(Boolean)
        .join(" · ");
      item.contextValue = pending ? "kesiFile.pending" : "kesiFile";
      return item;
    }
    const item = new vscode.TreeItem(node.hunk.label || hunkLines(node.hunk, locale));
    item.description = hunkDescription(node.hunk, locale);
    item.contextValue = `kesiHunk.${node.hunk.state}`;
    item.iconPath = new vscode.ThemeIcon(
      node.hunk.state === "pending"
        ? "circle-filled"
        : node.hunk.state === "kept"
          ? "check"
          : "discard",
    );
    item.command = {
      command: "kesi.view.open",
      title: hunkLines(node.hunk, locale),
      arguments: [node],
    };
    return item;
  }

  dispose(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    for (const subscription of this.subscriptions) {
      subscription.dispose();
    }
  }
}

/** What a row stands for, the same across refreshes: its run, file and hunk. */
export function rowId(node: ChangeNode): string {
  const run = `${node.folderUri} ${node.run.runId}`;
  if (node.kind === "run") {
    return run;
  }
  if (node.kind === "file") {
    return `${run} ${node.file.uri}`;
  }
  return `${run} ${node.file.uri} ${node.hunk.id}`;
}

/** The server command and argument that keep (or undo) what a row of the view stands for. */
export function rowCommand(
  action: "keep" | "undo",
  node: ChangeNode,
): { command: string; argument: Record<string, unknown> } {
  const command = action === "keep" ? "kesi.keep" : "kesi.undo";
  if (node.kind === "run") {
    return action === "undo"
      ? { command: "kesi.undoRun", argument: { uri: node.folderUri, runId: node.run.runId } }
      : { command, argument: { uri: node.folderUri, runId: node.run.runId } };
  }
  if (node.kind === "file") {
    return { command, argument: { uri: node.file.uri, runId: node.run.runId } };
  }
  return { command, argument: { uri: node.file.uri, hunkId: node.hunk.id } };
}
