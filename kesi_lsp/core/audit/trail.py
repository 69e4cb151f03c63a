"""What one run records in its folder's audit log, and the hooks other parts call.

A record is one JSON object: `time` (ISO 8601, local offset), `kind`, `run` (the run's id),
and the kind's own fields. Every string in it passes the run's redactor first, so the log holds
the markers, never a secret. The kinds:

- `command`: `command`, `ran_as` (when the policy rewrote it), `verdict` (the classifier's
  `allow`/`ask`/`deny`) and `reason`, `decided_by` (`red_line`, `rule`, `classifier`, `grant`,
  `user`) and `answer` (the user's `once`/`session`/`deny`), `sandbox`, `exit_code`,
  `duration_ms`, `bytes_out`, `timed_out`; or `task` (started as that background task).
- `edit`: `tool`, `path`, `hunks`, `review` (`reviewed`, `not_reviewed`), `decided_by`
  (`user`, `grant`, `rule`, `accept_edits`), `answer`, `outcome` (`applied`, `partial`,
  `rejected`, `failed`).
- `change`: a hunk or file the user later `kept` or `undone` (`path`, `lines`).
- `mcp_call` (the MCP client) and `network` (the proxy's refusals and the user's answers to
  widen it), through `mcp_call` and `network_grant` below.
- `task`: a background task's end (`task_ended`); its start is its command's record, which
  then carries `task` (the task's id) instead of an exit code.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from kesi_lsp.core.audit.log import AuditLog
from kesi_lsp.core.changes.model import Transition
from kesi_lsp.core.redaction.values import redact_value

Decider = Literal["red_line", "rule", "classifier", "grant", "user", "accept_edits"]
"""The `decided_by` values KeSi writes (a `str` in the signatures: other parts may add one)."""


def _now() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class AuditTrail:
    """The audit log as one run in one folder writes it."""

    log: AuditLog
    root: Path
    run_id: str
    redact: Callable[[str], str]

    def record(self, kind: str, **fields: Any) -> None:
        """Append one record of `kind` (fields that are None are left out), redacted.

        The one entry point: `command`, `edit`, `mcp_call` and `network_grant` call it, and a
        part with a kind of its own may too (a short lowercase `kind`, JSON-able fields)."""
        body = {k: v for k, v in fields.items() if v is not None}
        record = {"time": _now(), "kind": kind, "run": self.run_id, **body}
        self.log.append(self.root, redact_value(record, self.redact))

    def command(
        self,
        command: str,
        *,
        verdict: str,
        reason: str,
        decided_by: str,
        answer: str | None = None,
        ran_as: str | None = None,
        sandbox: str | None = None,
        exit_code: int | None = None,
        duration_ms: int | None = None,
        bytes_out: int | None = None,
        timed_out: bool | None = None,
        task: str | None = None,
    ) -> None:
        """A shell command: how it was decided, and (when it ran) how it ended, or which
        background `task` it became."""
        self.record(
            "command",
            command=command,
            ran_as=ran_as if ran_as != command else None,
            verdict=verdict,
            reason=reason,
            decided_by=decided_by,
            answer=answer,
            sandbox=sandbox,
            exit_code=exit_code,
            duration_ms=duration_ms,
            bytes_out=bytes_out,
            timed_out=timed_out or None,
            task=task,
        )

    def edit(
        self,
        tool: str,
        path: str,
        *,
        hunks: int,
        reviewed: bool,
        decided_by: str,
        answer: str | None,
        outcome: str,
    ) -> None:
        """A file edit or write: its size in hunks, how it was decided, what became of it."""
        self.record(
            "edit",
            tool=tool,
            path=path,
            hunks=hunks,
            review="reviewed" if reviewed else "not_reviewed",
            decided_by=decided_by,
            answer=answer,
            outcome=outcome,
        )

    def change(self, action: str, path: str, *, run: str, lines: str | None = None) -> None:
        """A change of `run` the user `kept` or `undone` later (a hunk at `lines`, or the
        whole file)."""
        self.record("change", action=action, path=path, of_run=run, lines=lines)

    def transition(self, transition: Transition) -> None:
        """`ChangeSets.observer`: a hunk (or file) the user kept or undid, recorded as `change`
        (a hunk the user typed over or that came back is not a decision, and is left out)."""
        if transition.kind not in ("kept", "undone", "uncreated", "undeleted"):
            return
        action = "kept" if transition.kind == "kept" else "undone"
        hunk = transition.hunk
        lines = None if hunk is None else f"{hunk.start + 1}-{hunk.start + max(hunk.span, 1)}"
        self.change(action, transition.rel, run=transition.run_id, lines=lines)

    def mcp_call(
        self,
        server: str,
        tool: str,
        *,
        decided_by: str,
        answer: str | None = None,
        verdict: str | None = None,
        reason: str | None = None,
        is_error: bool = False,
        duration_ms: int | None = None,
        bytes_out: int | None = None,
    ) -> None:
        """An MCP tool call (the MCP client, issue 26): which server and tool, who let it run
        or refused it (`verdict` as a command's: `allow`, `ask`, `deny`), whether it failed,
        how long it took and how much it returned (both None: it was refused, never called)."""
        self.record(
            "mcp_call",
            server=server,
            tool=tool,
            verdict=verdict,
            reason=reason,
            decided_by=decided_by,
            answer=answer,
            is_error=is_error or None,
            duration_ms=duration_ms,
            bytes_out=bytes_out,
        )

    def network_grant(
        self,
        host: str,
        *,
        allowed: bool,
        decided_by: str,
        answer: str | None = None,
        reason: str | None = None,
        port: int | None = None,
        command: str | None = None,
    ) -> None:
        """A host a sandboxed command asked to reach (the network proxy, issue 27): whether it
        was allowed, by whom (`user`, with the answer; `session`: refused earlier this
        session; `setting`: not on the allow-list in mode allowList; or the proxy's reason:
        `denied`, `address`, `sni`, `limit`), and for which command."""
        self.record(
            "network",
            host=host,
            port=port,
            allowed=allowed,
            reason=reason,
            decided_by=decided_by,
            answer=answer,
            command=command,
        )

    def task_ended(
        self,
        task: str,
        command: str,
        *,
        state: str,
        exit_code: int | None,
        duration_ms: int,
        bytes_out: int,
        limit_s: float | None = None,
    ) -> None:
        """A background task's end (its start is its command's record, with `task`): how it
        ended (`exited`, `stopped`, `timed_out` after `limit_s`), its code, time and output."""
        self.record(
            "task",
            task=task,
            command=command,
            state=state,
            exit_code=exit_code,
            duration_ms=duration_ms,
            bytes_out=bytes_out,
            limit_s=limit_s if state == "timed_out" else None,
        )
