"""Background tasks (issue 28, seed Day 11's next step): a dev server, a watcher or a long build
started by `run_command` with `background: true`, kept running while the agent works, read with
`task_output` and stopped with `task_stop`.

A task is started through exactly the foreground path (the gate's classifier, prompts, rules
and grants; the same sandbox argv under the same lifeline watcher), so nothing about what may
run changes; only who waits for it does. `BackgroundTasks` (one per session) holds at most
`MAX_RUNNING` of them, stops them all on reset, folder removal and server exit, and tells the
model which ended since its last request (`notes.py`). The name is `background`, not `tasks`:
`kesi_lsp.core.tasks` is the task *text* a front end gives the agent.
"""

from __future__ import annotations

from kesi_lsp.core.background.registry import MAX_RUNNING, BackgroundTasks, TaskLimitError
from kesi_lsp.core.background.task import BackgroundTask, TaskState, TaskView

__all__ = [
    "MAX_RUNNING",
    "BackgroundTask",
    "BackgroundTasks",
    "TaskLimitError",
    "TaskState",
    "TaskView",
]
