/** Answers `kesi/saveDocuments` by saving exactly the open documents the server names. */

import * as vscode from "vscode";
import { asSaveDocumentsParams, type SaveDocumentsResult } from "./core/protocol";
import { saveDocuments } from "./core/saveDocuments";

/** The open document for a URI, comparing parsed URIs so spelling differences do not matter. */
function findOpen(uri: string): vscode.TextDocument | undefined {
  let wanted: string;
  try {
    wanted = vscode.Uri.parse(uri, true).toString();
  } catch {
    return undefined;
  }
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === wanted);
}

export async function handleSaveDocuments(params: unknown): Promise<SaveDocumentsResult> {
  const request = asSaveDocumentsParams(params);
  return saveDocuments(request?.uris ?? [], findOpen);
}
