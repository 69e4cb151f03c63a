/**
 * KeSi's pending hunks drawn in the editor (issue 32): this client announces
 * `experimental.kesi.hunks`, so the server sends `kesi/hunks` for each changed file instead of
 * `Information` diagnostics (which VS Code would list as Problems). The lines KeSi wrote get
 * the diff editor's inserted-line background, what they replaced is shown inline after them,
 * struck through, until the hunk is kept, undone or typed over (`core/hunkMarks.ts` decides
 * where; the server's lenses keep and undo).
 */

import * as vscode from "vscode";
import { hunkMarks } from "./core/hunkMarks";
import { asHunksChanged, type HunkView } from "./core/protocol";

export class HunkDecorations implements vscode.Disposable {
  private readonly written = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly removed = vscode.window.createTextEditorDecorationType({
    after: {
      margin: "0 0 0 2em",
      textDecoration: "line-through",
      backgroundColor: new vscode.ThemeColor("diffEditor.removedTextBackground"),
    },
  });
  /** The pending hunks of each file (by VS Code's URI string), as the server last said. */
  private readonly hunks = new Map<string, HunkView[]>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      this.written,
      this.removed,
      vscode.window.onDidChangeVisibleTextEditors((editors) =>
        editors.forEach((e) => this.draw(e)),
      ),
    ];
  }

  /** `kesi/hunks`: a file's pending hunks now (none: its marks go). */
  onHunks(params: unknown): void {
    const changed = asHunksChanged(params);
    if (!changed) {
      return;
    }
    const key = vscode.Uri.parse(changed.uri).toString();
    if (changed.hunks.length > 0) {
      this.hunks.set(key, changed.hunks);
    } else {
      this.hunks.delete(key);
    }
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() === key) {
        this.draw(editor);
      }
    }
  }

  /** The server went away: nothing it said is pending any more. */
  clear(): void {
    this.hunks.clear();
    vscode.window.visibleTextEditors.forEach((editor) => this.draw(editor));
  }

  private draw(editor: vscode.TextEditor): void {
    const document = editor.document;
    const marks = hunkMarks(this.hunks.get(document.uri.toString()) ?? [], document.lineCount);
    editor.setDecorations(
      this.written,
      marks.written.map(({ first, last }) => new vscode.Range(first, 0, last, 0)),
    );
    editor.setDecorations(
      this.removed,
      marks.removed.map(({ line, text }) => {
        const end = document.lineAt(line).range.end;
        return {
          range: new vscode.Range(end, end),
          renderOptions: { after: { contentText: text } },
        };
      }),
    );
  }

  dispose(): void {
    this.subscriptions.forEach((subscription) => subscription.dispose());
  }
}
