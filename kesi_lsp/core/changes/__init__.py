"""Change sets: every change a run lands stays reviewable and revertible (design §2.9).

Per session, per run that changed files: each file's base text and the run's hunks, each
`pending`, `kept`, `undone` or `modified`; the user's typing elsewhere moves them and is never
counted as the agent's (`tracking`); keeping and undoing (`actions`, `undo`) never overwrite
what the user wrote; the model hears what became of its changes before its next request
(`notes`). Editor-neutral: the LSP adapter turns it into lenses, code actions, diagnostics and
`workspace/applyEdit`, the ACP adapter into its own messages.
"""
