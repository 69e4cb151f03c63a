/**
 * The KeSi wire contract as the extension sees it (design.md §2): method names, the commands
 * the server answers, and the shapes of KeSi's own notifications and requests.
 *
 * The server defines the contract once, as typed classes (`kesi_lsp/lsp/contract`); every
 * interface below is checked against them by `tests/lsp/test_contract_ts.py`, which fails on a
 * field declared on one side only or a type that differs. A field may be optional here where
 * the server always sends it (a tolerant reader), never required where the server may leave it
 * out; what the extension sends must declare every field the server requires.
 *
 * Every line a user reads is the server's, in its `kesi.locale`, inside the payload: a stream
 * event's `line`/`lines` (and a tool's `detail`), the plan's `title`/`lines`/`current`, the
 * run's `line`/`lines`, the review's `title`/`question`/`actions`, the `lines` of command
 * results. Show them as they are; style them (colour, folding, placement) as the editor likes.
 *
 * Fields the server may add later are tolerated: every reader below checks what it uses.
 */

export const STREAM = "kesi/stream";
export const RUN_FINISHED = "kesi/runFinished";
export const SAVE_DOCUMENTS = "kesi/saveDocuments";
export const REVIEW_EDIT = "kesi/reviewEdit";
export const PLAN = "kesi/plan";
export const DIAGNOSTICS = "kesi/diagnostics";
export const TASKS = "kesi/tasks";
export const VERDICT = "kesi/verdict";
export const HUNKS = "kesi/hunks";

/**
 * What this client announces under `capabilities.experimental.kesi` (§2.2). `reviewEdit` only
 * when the user chose the diff-editor review; otherwise edits come as `needsConfirmation`
 * edits and VS Code's Refactor Preview reviews them. `hunks`: this client shows pending hunks
 * itself (decorations in the editor), so the server sends `kesi/hunks` instead of publishing
 * them as diagnostics, which VS Code would list as Problems.
 */
export function kesiClientCapabilities(reviewEdit: boolean): Record<string, boolean> {
  const common = { stream: true, saveDocuments: true, plan: true, diagnostics: true, hunks: true };
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
  "kesi.mcp",
  "kesi.mcpLogin",
  "kesi.mcpLogout",
  "kesi.compact",
  "kesi.changes",
  "kesi.keep",
  "kesi.undo",
  "kesi.undoRun",
  "kesi.audit",
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

/** An LSP diagnostic, as `kesi.fixThis` carries the ones of its range. */
export interface Diagnostic {
  range: Range;
  message: string;
  severity?: number;
  source?: string;
  code?: string | number;
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
 * What every event but `text` carries: `line`, the event's line as the server's log shows it
 * (`  [tool] grep: LIMIT in config.py`; a sub-agent's already indented under its call; "" when
 * the log shows nothing for the event), and `lines`, every log line of it in order (an edit's
 * diff, a search's sub-total after its call's result).
 */
export interface Rendered {
  line?: string;
  lines?: string[];
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
  /** What a reader follows the call by (`LIMIT in config.py`), "" when there is none. */
  detail?: string;
}

/**
 * A tool call's input is still arriving (Day 17): `line` is the server's progress line
 * (`  [tool] write_file: shop/rates.py · 12 KB so far`), shown in place: each `toolInput` of a
 * call replaces the last, and its `toolStart` replaces that. `lines` is empty (the log shows
 * none); `received` counts the input's bytes so far.
 */
export interface ToolInputEvent extends Nesting, Rendered {
  runId: string;
  kind: "toolInput";
  toolUseId: string;
  tool: string;
  received: number;
  detail?: string;
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

/** A model round trip began; `label` ("turn 2 of at most 20") is for a tooltip only. A
 * sub-agent's turn also names its agent in `nestedLabel` ("search agent: turn 2 of at most 10"),
 * for a status text beside the run's step. */
export interface TurnEvent extends Nesting, Rendered {
  runId: string;
  kind: "turn";
  turn: number;
  maxTurns: number;
  label?: string;
  nestedLabel?: string;
}

export type StreamEvent =
  | TextEvent
  | ToolInputEvent
  | ToolStartEvent
  | ToolEndEvent
  | NoticeEvent
  | UsageEvent
  | EditEvent
  | TurnEvent;

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
  sessionUsage?: Usage;
  /** The files the run edited, relative to its folder. */
  edits?: string[];
  /** The status in the server's words (its `kesi.locale`). */
  statusText?: string;
  /** The seed's bill line (Day 18); null when the run made no request. */
  bill?: string | null;
  /** Which limit stopped a "limit" run: max_turns, max_tokens, tool_failures, repeating... */
  limit?: string | null;
  /** Absent or null when the run changed and checked nothing. */
  verified?: Verdict | null;
  /** The log's closing lines: why it stopped, the verdict and its detail, the bill. */
  lines?: string[];
  /** The run's last line: status · verdict · bill, for a footer or a status bar. */
  line?: string;
}

export type PlanStatus = "pending" | "in_progress" | "completed";

export interface PlanItem {
  content: string;
  status: PlanStatus;
}

/**
 * `kesi/plan`: the model's whole plan, sent again after every update, and as the server
 * renders it: `title` ("Plan: 1 of 4 done"), `lines` (one per item, its mark first: ✓ ▶ ○) and
 * `current` ("step 2 of 4: Fix the sign", null when no step is in progress).
 */
export interface PlanParams {
  runId: string;
  items: PlanItem[];
  title?: string;
  lines?: string[];
  current?: string | null;
}

export type Decision = "reject" | "accept" | "acceptSession";

/** A button of an edit review: its words and what it answers. */
export interface ReviewAction {
  title: string;
  decision: Decision;
}

/**
 * `kesi/reviewEdit`: the change (`before` null for a new file) and the words to ask with,
 * `actions` in the order to show them (Deny first in every locale).
 */
export interface ReviewEditParams {
  runId: string;
  uri: string;
  path: string;
  before: string | null;
  after: string;
  diff: string;
  title: string;
  question: string;
  /** What "Allow for this session" covers (this one file, until the session ends). */
  scope?: string;
  actions: ReviewAction[];
  /** The proposed text's name, a diff tab's title ("KeSi's proposal: calc.py"); optional:
   * older servers leave it out. */
  proposal?: string;
}

/** The answer to `kesi/reviewEdit`; `after`: the text accepted when only some hunks were. */
export interface ReviewEditAnswer {
  decision: Decision;
  after?: string;
}

/** `kesi/diagnostics`: the files whose problems the server asks about. */
export interface DiagnosticsParams {
  uris: string[];
}

/** One file's diagnostics as the editor reports them, and how often they were updated. */
export interface DiagnosticsItem {
  uri: string;
  diagnostics: Record<string, unknown>[];
  changes?: number;
}

export interface DiagnosticsResult {
  items: DiagnosticsItem[];
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

/** `kesi.fixThis`'s argument. */
export interface FixThisArgs {
  uri: string;
  range: Range;
  diagnostics?: Diagnostic[];
  instruction?: string | null;
}

/** `kesi.ask`'s argument. */
export interface AskArgs {
  prompt: string;
  uri?: string | null;
  range?: Range | null;
}

export interface CancelArgs {
  runId?: string | null;
  uri?: string | null;
}

/** `kesi.reset`, `kesi.cost`, `kesi.permissions`, `kesi.revoke`, `kesi.compact`, `kesi.changes`. */
export interface FolderArgs {
  uri?: string | null;
}

export interface KeepArgs {
  uri?: string | null;
  runId?: string | null;
  hunkId?: string | null;
  all?: boolean | null;
}

export interface UndoArgs {
  uri?: string | null;
  runId?: string | null;
  hunkId?: string | null;
}

export interface UndoRunArgs {
  uri?: string | null;
  runId?: string | null;
}

/** `kesi.audit`: the folder's newest audit records (default 50). */
export interface AuditArgs {
  uri?: string | null;
  limit?: number | null;
}

/** `kesi.audit`: the records as the server's lines, the log file, whether recording is on. */
export interface AuditResult {
  lines: string[];
  path: string | null;
  enabled: boolean;
}

/** `kesi.stopTask`'s argument: the background task to stop (issue 28). */
export interface StopTaskArgs {
  taskId: string;
  uri?: string | null;
}

/** One background task as `kesi.tasks` lists it; `line` is the server's rendering of it. */
export interface TaskItem {
  taskId: string;
  command: string;
  state: "running" | "exited" | "stopped" | "timed_out";
  started: string;
  exitCode: number | null;
  lastLine: string;
  line: string;
}

/** `kesi.tasks`: the folder's background tasks, and `lines` in the server's words. */
export interface TasksResult {
  tasks: TaskItem[];
  lines: string[];
}

/** `kesi/tasks`: a task of folder `uri` started or ended (`line` says which). */
/** `kesi/verdict`: a run's verdict changed after it ended (the user undid, or brought back,
 * what its check ran on); `line` says it in the server's words. */
export interface VerdictChangedParams {
  runId: string;
  uri: string;
  verified: Verdict;
  line: string;
}

export interface TasksChangedParams {
  uri: string;
  line: string;
  tasks: TaskItem[];
  lines: string[];
}

/** `kesi.reset`, `kesi.revoke`: the seed's answer in the server's words. */
export interface MessageResult {
  message: string;
}

/** `kesi.cost`: the session's usage, and the seed's `/cost` report of it. */
export interface CostResult extends Usage {
  lines: string[];
}

/** The sandbox's network settings in force (`sandboxNetwork` and its host patterns). */
export interface NetworkView {
  mode: "off" | "ask" | "allowList";
  allow: string[];
  deny: string[];
}

export interface RuleView {
  kind: string;
  target: string;
  pattern: string;
  source: "initializationOptions" | "userSettings";
}

/** `kesi.permissions`: grants, the approvals mode, the rules, and the seed's listing. */
export interface PermissionsResult {
  commands: string[];
  files: string[];
  hosts: string[];
  approvals: "ask" | "acceptEdits";
  rules: RuleView[];
  network: NetworkView;
  lines: string[];
  /** MCP tools allowed for the session, as `mcp:<server>:<tool>`. */
  tools?: string[];
}

/** One MCP server as `kesi.mcp` lists it (issue 26). */
export interface McpServerView {
  name: string;
  source: string;
  transport: "stdio" | "http" | "sse";
  state: "starting" | "ready" | "failed" | "auth" | "stopped";
  reason?: string | null;
  tools: string[];
}

/** `kesi.mcp`: the folder's MCP servers and the listing rendered by the server. */
export interface McpResult {
  servers: McpServerView[];
  lines: string[];
}

/** `kesi.mcpLogin`, `kesi.mcpLogout`: the remote MCP server `server` of `uri`'s folder. */
export interface McpAccountArgs {
  server: string;
  uri?: string | null;
}

/** `kesi.mcpLogin` (the sign-in began: `lines` carry the address to open, or why not) and
 * `kesi.mcpLogout` (whether there was a sign-in to delete). */
export interface McpAccountResult {
  ok: boolean;
  lines: string[];
}

export type HunkState = "pending" | "kept" | "undone" | "modified";

export interface HunkView {
  id: string;
  range: Range;
  state: HunkState;
  added: number;
  removed: number;
  lines: number;
  /** Its row in the server's words: where it is and its code ("lines 8–9 · return x"). */
  label?: string;
  /** The lines it replaced (its diff's old side); optional: older servers leave it out. */
  base?: string;
}

/** `kesi/hunks` (to a client announcing `hunks`): the pending hunks of file `uri` now, across
 * runs, top to bottom; empty once none is left. */
export interface HunksChangedParams {
  uri: string;
  hunks: HunkView[];
}

export interface ChangedFile {
  uri: string;
  path: string;
  created: boolean;
  deleted: boolean;
  takenBack: boolean;
  gone: boolean;
  hunks: HunkView[];
}

export interface ChangeRun {
  runId: string;
  task: string;
  files: ChangedFile[];
  /** Its row in the server's words: "Fix this · shop/rates.py:8 · 20:42 · verified". */
  label?: string;
  /** Its verdict as it stands now (after an undo: "verified before your undo"). */
  verified?: Verdict | null;
}

/** `kesi.changes`: runs, newest first, and the same listing as lines. */
export interface ChangesResult {
  runs: ChangeRun[];
  lines: string[];
}

export interface HunkRef {
  path: string;
  hunkId: string | null;
}

export interface SkippedHunk extends HunkRef {
  reason: string;
}

export interface FailedFile {
  path: string;
  reason: string;
}

/** `kesi.keep`, `kesi.undo`, `kesi.undoRun`: what was done, already so, left alone, failed. */
export interface ChangeOutcomeResult {
  message: string;
  lines: string[];
  done: HunkRef[];
  already: HunkRef[];
  skipped: SkippedHunk[];
  failed: FailedFile[];
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
    case "toolInput":
      return typeof value.tool === "string" && typeof value.toolUseId === "string"
        ? (value as unknown as ToolInputEvent)
        : undefined;
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

/** `kesi/verdict`, or undefined when it is not one. */
export function asVerdictChanged(value: unknown): VerdictChangedParams | undefined {
  if (!isRecord(value) || typeof value.runId !== "string" || typeof value.line !== "string") {
    return undefined;
  }
  const verified = asVerdict(value.verified);
  const uri = typeof value.uri === "string" ? value.uri : "";
  return verified ? { runId: value.runId, uri, verified, line: value.line } : undefined;
}

function isHunkView(value: unknown): value is HunkView {
  if (!isRecord(value) || typeof value.id !== "string" || typeof value.lines !== "number") {
    return false;
  }
  const range = value.range;
  const start = isRecord(range) ? range.start : undefined;
  return isRecord(start) && typeof start.line === "number";
}

/** `kesi/hunks`, keeping its well-formed hunks; undefined when it is not one. */
export function asHunksChanged(value: unknown): HunksChangedParams | undefined {
  if (!isRecord(value) || typeof value.uri !== "string" || !Array.isArray(value.hunks)) {
    return undefined;
  }
  return { uri: value.uri, hunks: value.hunks.filter(isHunkView) };
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
