"""KeSi in Agent Client Protocol clients (Zed, JetBrains, CodeCompanion, agent-shell; design
§2.12): `kesi-lsp acp` speaks ACP v1 over stdio, on the same core as the language server.

No agent logic lives here: the run's life, the task text, the settings' validation, the
permission gate, the sandbox and the fence are the core's. This package only translates: a
session is a core `Session` fenced to its `cwd`, a prompt is a run, the run's events are
`session/update`s, the gate's questions are `session/request_permission`, files go through the
client's `fs/*` when it offers them. Commands always run in KeSi's own sandbox, never through
the client's `terminal/*`. It never imports `kesi_lsp.lsp` (and that never imports this).
"""
