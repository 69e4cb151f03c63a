/**
 * The `kesi.*` settings the server reads (design.md §2.1), and how they travel.
 *
 * The server validates every value and answers a bad one with a message and its default, so
 * the client passes what the user set without second-guessing it. Client-only settings
 * (`serverPath`, `trace.server`) stay in the client.
 */

/** Server settings with their defaults; package.json declares the same keys and defaults. */
export const SERVER_SETTINGS = {
  model: "claude-haiku-4-5",
  maxTokens: 8192,
  maxTurns: 20,
  maxToolFailures: 3,
  commandTimeout: 120,
  taskTimeout: 1800,
  sandbox: "auto",
  commandMemoryLimit: 4096,
  sandboxNetwork: "ask",
  sandboxNetworkAllow: [],
  sandboxNetworkDeny: [],
  approvals: "ask",
  promptCaching: true,
  contextTrimming: true,
  contextBudget: 50_000,
  compaction: true,
  streamIdleTimeout: 60,
  searchMaxTurns: 10,
  locale: "en",
  changeSets: true,
  runEndMessage: true,
  respectGitignore: true,
  maxMessageMegabytes: 64,
  permissions: {},
  passEnv: [],
  auditLog: true,
  mcpServers: {},
} as const;

export type ServerSettingKey = keyof typeof SERVER_SETTINGS;

export const CLIENT_SETTINGS = ["serverPath", "review", "trace.server"] as const;

/**
 * Settings taken from the user's own (global) settings only, never from a workspace or folder:
 * a cloned repository's `.vscode/settings.json` must not turn the sandbox off, skip the review
 * of edits, grant its own commands (`permissions`) or hosts (`sandboxNetworkAllow`), hand the
 * user's tokens to its own scripts (`passEnv`), hide what it made KeSi do (`auditLog`), or send
 * the API key and the code to another address. package.json gives them
 * `"scope": "machine"` too, and the server ignores them in a folder's answer.
 */
export const USER_ONLY_SETTINGS = [
  "sandbox",
  "commandMemoryLimit",
  "sandboxNetwork",
  "sandboxNetworkAllow",
  "sandboxNetworkDeny",
  "approvals",
  "baseUrl",
  "permissions",
  "passEnv",
  "auditLog",
  "mcpServers",
] as const;

/** Never sent by this client: the API key belongs in `ANTHROPIC_API_KEY` (Settings Sync would
 * copy a key kept in settings.json to every machine). */
export const NEVER_SENT = ["apiKey"] as const;

/** Reads one `kesi.<key>` from the user's global settings only (`inspect(key)?.globalValue`). */
export type UserValueGetter = (key: string) => unknown;

/** The user-only settings: the user's global value, else the default (never the workspace's),
 * so removing a user value really goes back to the default. */
function userOnly(userValue: UserValueGetter): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const defaults: Record<string, unknown> = SERVER_SETTINGS;
  for (const key of USER_ONLY_SETTINGS) {
    const value = userValue(key);
    if (value !== undefined && value !== null && value !== "") {
      values[key] = value;
    } else if (defaults[key] !== undefined) {
      values[key] = defaults[key];
    }
  }
  return values;
}

/** How edits are reviewed: a diff editor with per-change lenses and the panel's question (the
 * default), or VS Code's Refactor Preview. */
export type ReviewMode = "refactorPreview" | "diffEditor";

export function asReviewMode(value: unknown): ReviewMode {
  return value === "refactorPreview" ? "refactorPreview" : "diffEditor";
}

/** Reads one `kesi.<key>` setting (VS Code's merged value, defaults included). */
export type SettingGetter = (key: string) => unknown;

/** `initializationOptions` for `initialize`: `{kesi: {...}}`, as the server accepts it. */
export function initializationOptions(
  get: SettingGetter,
  userValue: UserValueGetter,
): { kesi: Record<string, unknown> } {
  const kesi: Record<string, unknown> = {};
  const guarded = new Set<string>(USER_ONLY_SETTINGS);
  for (const [key, fallback] of Object.entries(SERVER_SETTINGS)) {
    // A user-only setting the user has not set is its default, whatever the workspace says.
    const value = guarded.has(key) ? fallback : get(key);
    if (value !== undefined && value !== null) {
      kesi[key] = value;
    }
  }
  return { kesi: { ...kesi, ...userOnly(userValue) } };
}

/**
 * Settings whose change needs a new server process: the executable, the review mode
 * (announced once, in `initialize`), the size limit of the server's reader (read from
 * `initialize`), and the user-only settings (the server takes them only from `initialize` or
 * an unscoped answer, never a folder's). The others travel live.
 */
export function needsRestart(affects: (section: string) => boolean): boolean {
  const restarting = ["serverPath", "review", "maxMessageMegabytes", ...USER_ONLY_SETTINGS];
  return restarting.some((key) => affects(`kesi.${key}`));
}

/**
 * The `kesi` section as the server should see it: the client's own settings (where the server
 * lives, how reviews look, tracing) removed, so the server does not log them as unknown; the
 * API key removed; `USER_ONLY_SETTINGS` replaced by the user's global values.
 */
export function serverSection(value: unknown, userValue: UserValueGetter): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return value;
  }
  const dropped = new Set<string>([
    ...CLIENT_SETTINGS.map((key) => key.split(".")[0]),
    ...USER_ONLY_SETTINGS,
    ...NEVER_SENT,
  ]);
  const kept = Object.entries(value as Record<string, unknown>).filter(
    ([key]) => !dropped.has(key),
  );
  return { ...Object.fromEntries(kept), ...userOnly(userValue) };
}
