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
  sandbox: "auto",
  approvals: "ask",
  promptCaching: true,
  contextTrimming: true,
  contextBudget: 50_000,
  locale: "en",
} as const;

export type ServerSettingKey = keyof typeof SERVER_SETTINGS;

export const CLIENT_SETTINGS = ["serverPath", "review", "trace.server"] as const;

/** How edits are reviewed: VS Code's Refactor Preview, or a diff editor with three buttons. */
export type ReviewMode = "refactorPreview" | "diffEditor";

export function asReviewMode(value: unknown): ReviewMode {
  return value === "diffEditor" ? "diffEditor" : "refactorPreview";
}

/** Reads one `kesi.<key>` setting (VS Code's merged value, defaults included). */
export type SettingGetter = (key: string) => unknown;

/** `initializationOptions` for `initialize`: `{kesi: {...}}`, as the server accepts it. */
export function initializationOptions(get: SettingGetter): { kesi: Record<string, unknown> } {
  const kesi: Record<string, unknown> = {};
  for (const key of Object.keys(SERVER_SETTINGS)) {
    const value = get(key);
    if (value !== undefined && value !== null) {
      kesi[key] = value;
    }
  }
  return { kesi };
}

/**
 * Settings whose change needs a new server process: the executable, and the review mode
 * (announced once, in `initialize`). The others travel live.
 */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return affects("kesi.serverPath") || affects("kesi.review");
}

/**
 * The `kesi` section as the server should see it: the client's own settings (where the server
 * lives, how reviews look, tracing) removed, so the server does not log them as unknown.
 */
export function serverSection(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return value;
  }
  const clientKeys = new Set(CLIENT_SETTINGS.map((key) => key.split(".")[0]));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(([key]) => !clientKeys.has(key)),
  );
}
