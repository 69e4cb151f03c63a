/**
 * The KeSi wire contract as the extension sees it (design.md §2): method names, the commands
 * the server answers, and the shapes of KeSi's own notifications and requests.
 *
 * Fields the server may add later are tolerated: every reader below checks what it uses.
 */

export const STREAM = "kesi/stream";
export const RUN_FINISHED = "kesi/runFinished";
export const SAVE_DOCUMENTS = "kesi/saveDocuments";
export const REVIEW_EDIT = "kesi/reviewEdit";

/**
 * What this client announces under `capabilities.experimental.kesi` (§2.2). `reviewEdit` only
 * when the user chose the diff-editor review; otherwise edits come as `needsConfirmation`
 * edits and VS Code's Refactor Preview reviews them.
 */
export function kesiClientCapabilities(reviewEdit: boolean): Record<string, boolean> {
  return reviewEdit
    ? { stream: true, reviewEdit: true, saveDocuments: true }
    : { stream: true, saveDocuments: true };
}

/** The server's commands (§2.3); each is also a VS Code command of the same id. */
export const SERVER_COMMANDS = [
  "kesi.fixThis",
  "kesi.ask",
  "kesi.cancel",
  "kesi.reset",
  "kesi.cost",
  "kesi.permissions",
  "kesi.revoke",
  "kesi.changes",
  "kesi.keep",
  "kesi.undo",
  "kesi.undoRun",
] as const;
export type ServerCommand = (typeof SERVER_COMMANDS)[number];

export function isServerCommand(command: string): command is ServerCommand {
  return (SERVER_COMMANDS as readonly string[]).includes(command);
}

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Token counts and price, as `kesi.cost` answers and `usage` events carry them. */
export interface Usage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  partial?: boolean;
}

export interface TextEvent {
  runId: string;
  kind: "text";
  text: string;
}

export interface ToolStartEvent {
  runId: string;
  kind: "toolStart";
  tool: string;
  input?: Record<string, unknown>;
}

export interface ToolEndEvent {
  runId: string;
  kind: "toolEnd";
  tool: string;
  isError: boolean;
  summary?: string;
}

export interface NoticeEvent {
  runId: string;
  kind: "notice";
  text: string;
  notice?: string;
}

export interface UsageEvent {
  runId: string;
  kind: "usage";
  request?: Usage;
  run?: Usage;
  session?: Usage;
}

/** An edit reached the workspace (disk and buffer agree); `diff` is its unified diff. */
export interface EditEvent {
  runId: string;
  kind: "edit";
  tool?: string;
  path: string;
  diff?: string;
}

/** A model round trip began (the progress notification shows it too). */
export interface TurnEvent {
  runId: string;
  kind: "turn";
  turn: number;
  maxTurns: number;
}

export type StreamEvent =
  TextEvent | ToolStartEvent | ToolEndEvent | NoticeEvent | UsageEvent | EditEvent | TurnEvent;

export type RunStatus = "done" | "cancelled" | "failed" | "limit";

export interface RunFinished {
  runId: string;
  status: RunStatus;
  text?: string;
  usage?: Usage;
}

export interface RunStarted {
  runId: string;
}

export interface CancelResult {
  cancelled: boolean;
}

export interface PermissionsResult {
  commands: string[];
  files: string[];
  /** kesi.approvals: "acceptEdits" means every file edit is allowed without asking. */
  approvals?: string;
  /** The server's line listing the permission rules in force and where each came from. */
  rulesLine?: string;
}

export interface SaveDocumentsParams {
  uris: string[];
}

/** What the client answers to `kesi/saveDocuments`: each URI lands in exactly one list. */
export interface SaveDocumentsResult {
  saved: string[];
  notOpen: string[];
  failed: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A `kesi/stream` payload, or undefined when it is not one this client understands. */
export function asStreamEvent(value: unknown): StreamEvent | undefined {
  if (!isRecord(value) || typeof value.runId !== "string") {
    return undefined;
  }
  switch (value.kind) {
    case "text":
      return typeof value.text === "string" ? (value as unknown as TextEvent) : undefined;
    case "toolStart":
    case "toolEnd":
      return typeof value.tool === "string" ? (value as unknown as StreamEvent) : undefined;
    case "notice":
      return typeof value.text === "string" ? (value as unknown as NoticeEvent) : undefined;
    case "usage":
      return value as unknown as UsageEvent;
    case "edit":
      return typeof value.path === "string" ? (value as unknown as EditEvent) : undefined;
    case "turn":
      return typeof value.turn === "number" ? (value as unknown as TurnEvent) : undefined;
    default:
      return undefined;
  }
}

export function asRunFinished(value: unknown): RunFinished | undefined {
  if (!isRecord(value) || typeof value.runId !== "string" || typeof value.status !== "string") {
    return undefined;
  }
  return value as unknown as RunFinished;
}

export function asRunStarted(value: unknown): RunStarted | undefined {
  return isRecord(value) && typeof value.runId === "string" ? { runId: value.runId } : undefined;
}

export function asUsage(value: unknown): Usage | undefined {
  return isRecord(value) && typeof value.costUsd === "number"
    ? (value as unknown as Usage)
    : undefined;
}

export function asPermissions(value: unknown): PermissionsResult | undefined {
  if (!isRecord(value) || !Array.isArray(value.commands) || !Array.isArray(value.files)) {
    return undefined;
  }
  const result: PermissionsResult = {
    commands: value.commands.map(String),
    files: value.files.map(String),
  };
  if (typeof value.approvals === "string") {
    result.approvals = value.approvals;
  }
  const lines = Array.isArray(value.lines) ? value.lines : [];
  const last: unknown = lines[lines.length - 1];
  if (Array.isArray(value.rules) && typeof last === "string") {
    result.rulesLine = last; // the server's words, in the session's locale
  }
  return result;
}

export function asSaveDocumentsParams(value: unknown): SaveDocumentsParams | undefined {
  if (!isRecord(value) || !Array.isArray(value.uris)) {
    return undefined;
  }
  return { uris: value.uris.filter((uri): uri is string => typeof uri === "string") };
}
