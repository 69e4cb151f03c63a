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
export const PLAN = "kesi/plan";
export const DIAGNOSTICS = "kesi/diagnostics";

/**
 * What this client announces under `capabilities.experimental.kesi` (§2.2). `reviewEdit` only
 * when the user chose the diff-editor review; otherwise edits come as `needsConfirmation`
 * edits and VS Code's Refactor Preview reviews them.
 */
export function kesiClientCapabilities(reviewEdit: boolean): Record<string, boolean> {
  const common = { stream: true, saveDocuments: true, plan: true, diagnostics: true };
  return reviewEdit ? { ...common, reviewEdit: true } : common;
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
  "kesi.compact",
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

/**
 * Every stream event may come from a sub-agent (the search agent) working inside a tool call:
 * then it names that call (`parentToolUseId`), the agent, and its depth (1 = directly under a
 * call of the main run), so it can be shown indented under the call.
 */
export interface Nesting {
  parentToolUseId?: string;
  agent?: string;
  depth?: number;
}

/**
 * Every event but model text carries its lines as the server rendered them, in the session's
 * locale: `line` (its first line, "" when the story shows nothing for it), `lines` (all of
 * them: an edit's diff, a search's sub-total after its call's result; a sub-agent's already
 * indented under its call) and, for a tool call, `detail` (what it works on). The client
 * places and styles them; it never words them itself.
 */
export interface Rendered {
  line?: string;
  lines?: string[];
  detail?: string;
}

/** The lines the server rendered for an event or a run's end, `lines` else `line`. */
export function renderedLines(value: Rendered): string[] {
  if (Array.isArray(value.lines)) {
    return value.lines.map(String);
  }
  return value.line ? [value.line] : [];
}

export interface TextEvent extends Nesting {
  runId: string;
  kind: "text";
  text: string;
}

export interface ToolStartEvent extends Nesting, Rendered {
  runId: string;
  kind: "toolStart";
  toolUseId?: string;
  tool: string;
  input?: Record<string, unknown>;
}

export interface ToolEndEvent extends Nesting, Rendered {
  runId: string;
  kind: "toolEnd";
  toolUseId?: string;
  tool: string;
  isError: boolean;
  summary?: string;
}

export interface NoticeEvent extends Nesting, Rendered {
  runId: string;
  kind: "notice";
  text: string;
  notice?: string;
}

/** Why a request was made: a round of the run, a summary of old turns, a search. */
export type Purpose = "turn" | "compaction" | "search";

export interface UsageEvent extends Nesting, Rendered {
  runId: string;
  kind: "usage";
  purpose?: Purpose;
  request?: Usage;
  run?: Usage;
  session?: Usage;
  /** A search's running total (its requests only). */
  subtotal?: Usage;
}

/** An edit reached the workspace (disk and buffer agree); `diff` is its unified diff. */
export interface EditEvent extends Nesting, Rendered {
  runId: string;
  kind: "edit";
  tool?: string;
  path: string;
  diff?: string;
}

/** A model round trip began (the progress notification shows it too). */
export interface TurnEvent extends Nesting, Rendered {
  runId: string;
  kind: "turn";
  turn: number;
  maxTurns: number;
}

export type StreamEvent =
  TextEvent | ToolStartEvent | ToolEndEvent | NoticeEvent | UsageEvent | EditEvent | TurnEvent;

export type RunStatus = "done" | "cancelled" | "failed" | "limit";

export type VerdictStatus = "verified" | "failed" | "unverified";

/** The server's own verdict on a run's changes (§2.10): never the model's word. */
export interface Verdict {
  status: VerdictStatus;
  /** The status in the server's words (its `kesi.locale`). */
  text?: string;
  by: string | null;
  detail: string;
}

export interface RunFinished {
  runId: string;
  status: RunStatus;
  text?: string;
  usage?: Usage;
  /** The status in the server's words (its `kesi.locale`). */
  statusText?: string;
  /** The seed's bill line (Day 18); null when the run made no request. */
  bill?: string | null;
  /** Which limit stopped a "limit" run: max_turns, max_tokens, tool_failures, repeating... */
  limit?: string | null;
  /** Absent or null when the run changed and checked nothing. */
  verified?: Verdict | null;
  /** The run's last line: its status, the verdict and the bill, in the server's words. */
  line?: string;
  /** How the story closes: why it stopped (unless done), the verdict and its detail, the bill. */
  lines?: string[];
}

export type PlanStatus = "pending" | "in_progress" | "completed";

export interface PlanItem {
  content: string;
  status: PlanStatus;
}

/**
 * `kesi/plan`: the model's whole plan, sent again after every update, with the server's lines:
 * one per item with its status mark (`lines`), its head (`title`) and the step in progress
 * (`current`, null when none is).
 */
export interface PlanParams {
  runId: string;
  items: PlanItem[];
  lines: string[];
  title: string;
  current: string | null;
}

/** `kesi/diagnostics`: the files whose problems the server asks about. */
export interface DiagnosticsParams {
  uris: string[];
}

export interface RunStarted {
  runId: string;
}

export interface CancelResult {
  cancelled: boolean;
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

const VERDICTS: readonly string[] = ["verified", "failed", "unverified"];
const PLAN_STATUSES: readonly string[] = ["pending", "in_progress", "completed"];

export function asVerdict(value: unknown): Verdict | undefined {
  if (!isRecord(value) || typeof value.status !== "string" || !VERDICTS.includes(value.status)) {
    return undefined;
  }
  const verdict: Verdict = {
    status: value.status as VerdictStatus,
    by: typeof value.by === "string" ? value.by : null,
    detail: typeof value.detail === "string" ? value.detail : "",
  };
  if (typeof value.text === "string" && value.text !== "") {
    verdict.text = value.text;
  }
  return verdict;
}

export function asRunFinished(value: unknown): RunFinished | undefined {
  if (!isRecord(value) || typeof value.runId !== "string" || typeof value.status !== "string") {
    return undefined;
  }
  const finished = value as unknown as RunFinished;
  return { ...finished, verified: asVerdict(value.verified) ?? null };
}

export function asPlan(value: unknown): PlanParams | undefined {
  if (!isRecord(value) || typeof value.runId !== "string" || !Array.isArray(value.items)) {
    return undefined;
  }
  const items: PlanItem[] = [];
  for (const item of value.items) {
    if (
      !isRecord(item) ||
      typeof item.content !== "string" ||
      typeof item.status !== "string" ||
      !PLAN_STATUSES.includes(item.status)
    ) {
      return undefined;
    }
    items.push({ content: item.content, status: item.status as PlanStatus });
  }
  const lines = Array.isArray(value.lines) ? value.lines.map(String) : [];
  if (lines.length !== items.length) {
    return undefined;
  }
  return {
    runId: value.runId,
    items,
    lines,
    title: typeof value.title === "string" ? value.title : "",
    current: typeof value.current === "string" ? value.current : null,
  };
}

export function asDiagnosticsParams(value: unknown): DiagnosticsParams | undefined {
  if (!isRecord(value) || !Array.isArray(value.uris)) {
    return undefined;
  }
  return { uris: value.uris.filter((uri): uri is string => typeof uri === "string") };
}

export function asRunStarted(value: unknown): RunStarted | undefined {
  return isRecord(value) && typeof value.runId === "string" ? { runId: value.runId } : undefined;
}

export function asUsage(value: unknown): Usage | undefined {
  return isRecord(value) && typeof value.costUsd === "number"
    ? (value as unknown as Usage)
    : undefined;
}

export function asSaveDocumentsParams(value: unknown): SaveDocumentsParams | undefined {
  if (!isRecord(value) || !Array.isArray(value.uris)) {
    return undefined;
  }
  return { uris: value.uris.filter((uri): uri is string => typeof uri === "string") };
}
