/**
 * Answers `kesi/diagnostics {uris}` (design.md §2.10) with what every language server in VS
 * Code reports for those files (`languages.getDiagnostics`), so the model hears which errors
 * and warnings its edit introduced. Each URI also carries how many times its diagnostics were
 * updated since the extension started: a new count tells the server that some language server
 * has looked at the file again after the change, even if it found the same problems.
 */

import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { asDiagnosticsParams } from "./core/protocol";

export class EditorDiagnostics implements vscode.Disposable {
  private readonly changes = new Map<string, number>();
  private readonly listener = vscode.languages.onDidChangeDiagnostics((event) => {
    for (const uri of event.uris) {
      const key = uri.toString();
      this.changes.set(key, (this.changes.get(key) ?? 0) + 1);
    }
  });

  answer(client: BaseLanguageClient, params: unknown): { items: unknown[] } {
    const asked = asDiagnosticsParams(params)?.uris ?? [];
    const items = asked.map((raw) => {
      const uri = client.protocol2CodeConverter.asUri(raw);
      // KeSi's own diagnostics (its pending changes) describe its edits, not problems in them.
      const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source !== "KeSi");
      const counted = this.changes.get(uri.toString());
      return {
        uri: raw,
        diagnostics: client.code2ProtocolConverter.asDiagnosticsSync(found),
        // Reports from before the extension started still mean a server looks at the file.
        changes: counted ?? (found.length ? 1 : 0),
      };
    });
    return { items };
  }

  dispose(): void {
    this.listener.dispose();
  }
}
