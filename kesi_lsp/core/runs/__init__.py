"""A run's life, the same below every front end (design §1).

One run per session at a time (`registry`), started as an asyncio task and stopped the way the
seed's Ctrl-C stops it; the sandbox chosen once per folder and announced (`sandboxes`); the
approvals notice, the gate wiring and exactly one `RunFinished` at the end (`drive`); the agent
itself, loaded lazily so a front end starts fast (`agent`). A front end (the LSP adapter, the ACP
adapter) only supplies a `RunFrontend`: where the run's story goes and how the user is asked.
"""
