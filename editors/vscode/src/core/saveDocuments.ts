/**
 * `kesi/saveDocuments`: after an accepted edit VS Code leaves the file open and dirty, so the
 * server asks the client to save exactly those documents (design.md §2.7, step 3).
 *
 * Only the URIs asked for are touched; other unsaved work stays unsaved. A document that is
 * not open has nothing to save (the disk already is the document); the server checks disk and
 * buffer afterwards either way.
 */

import type { SaveDocumentsResult } from "./protocol";

export interface SavableDocument {
  readonly isDirty: boolean;
  save(): PromiseLike<boolean>;
}

/** Finds the open document for a URI as the server spelled it, or undefined. */
export type FindDocument = (uri: string) => SavableDocument | undefined;

export async function saveDocuments(
  uris: string[],
  find: FindDocument,
): Promise<SaveDocumentsResult> {
  const result: SaveDocumentsResult = { saved: [], notOpen: [], failed: [] };
  for (const uri of [...new Set(uris)]) {
    const document = find(uri);
    if (!document) {
      result.notOpen.push(uri);
      continue;
    }
    if (!document.isDirty) {
      result.saved.push(uri);
      continue;
    }
    let ok = false;
    try {
      ok = await document.save();
    } catch {
      ok = false;
    }
    (ok ? result.saved : result.failed).push(uri);
  }
  return result;
}
