/**
 * The arguments of KeSi's commands when they come from the palette rather than the lightbulb.
 *
 * The lightbulb's code action already carries `{uri, range, diagnostics}` (design.md §2.4);
 * from the palette the client builds the same object from the active editor, so both paths
 * ask the server the same question.
 */

import { t, type Locale } from "./messages";
import type { Position, Range } from "./protocol";

export interface Diagnostic {
  range: Range;
  [key: string]: unknown;
}

/** What the client knows about the active editor, already in LSP terms. */
export interface EditorState {
  uri: string;
  selection: Range;
  /** Length of the line the cursor is on (for an empty selection). */
  cursorLineLength: number;
  diagnostics: Diagnostic[];
}

export interface FixThisArgs {
  uri: string;
  range: Range;
  diagnostics: Diagnostic[];
  instruction?: string;
}

export interface AskArgs {
  prompt: string;
  uri?: string;
  range?: Range;
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

export function isEmpty(range: Range): boolean {
  return range.start.line === range.end.line && range.start.character === range.end.character;
}

/** Ranges overlap or touch (a diagnostic at the edge of a selection still belongs to it). */
export function intersects(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** The selection, or the cursor's whole line when nothing is selected. */
export function fixRange(editor: EditorState): Range {
  if (!isEmpty(editor.selection)) {
    return editor.selection;
  }
  const line = editor.selection.start.line;
  return { start: { line, character: 0 }, end: { line, character: editor.cursorLineLength } };
}

export function fixThisArgs(editor: EditorState): FixThisArgs {
  const range = fixRange(editor);
  return {
    uri: editor.uri,
    range,
    diagnostics: editor.diagnostics.filter((diagnostic) => intersects(diagnostic.range, range)),
  };
}

export function askArgs(prompt: string, editor: EditorState | undefined): AskArgs {
  if (!editor) {
    return { prompt };
  }
  return isEmpty(editor.selection)
    ? { prompt, uri: editor.uri }
    : { prompt, uri: editor.uri, range: editor.selection };
}

/** "12" or "12-14", 1-based as editors number lines (an end at column 0 is not counted). */
export function lineLabel(range: Range): string {
  const first = range.start.line + 1;
  let last = range.end.line + 1;
  if (range.end.line > range.start.line && range.end.character === 0) {
    last -= 1;
  }
  return last > first ? `${first}-${last}` : `${first}`;
}

function isRange(value: unknown): value is Range {
  const r = value as Range | undefined;
  return (
    typeof r === "object" &&
    r !== null &&
    typeof r.start?.line === "number" &&
    typeof r.end?.line === "number"
  );
}

/** The title of a run's header in the output channel. */
export function runTitle(
  command: string,
  args: Record<string, unknown>,
  relativePath: (uri: string) => string,
  locale: Locale,
): string {
  const where = (): string => {
    const uri = typeof args.uri === "string" ? relativePath(args.uri) : "";
    return isRange(args.range) ? `${uri}:${lineLabel(args.range)}` : uri;
  };
  if (command === "kesi.fixThis") {
    return t("run.title.fix", locale, { where: where() });
  }
  if (command === "kesi.ask" && typeof args.prompt === "string") {
    const prompt = args.prompt.replace(/\s+/g, " ").trim();
    const short = prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt;
    return t("run.title.ask", locale, { prompt: short });
  }
  return t("run.title.other", locale);
}
