"""The audit log's records as lines a user reads: `kesi.audit` in the editor and `kesi-lsp
audit` on the command line show the same words (the catalog's `audit.*`, en or zh-TW).

Each kind's renderer gives the words of its catalog line `audit.line.<kind>`; `record_line`
adds the time and looks the line up, once for every kind.

A record this KeSi does not know (a kind added by a newer one, a field missing) still gets a
line: its kind and its fields as JSON, never an error.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Mapping
from typing import Any

from kesi_lsp.catalog import Locale, text

Record = Mapping[str, Any]
Fields = dict[str, object]
"""A record's words for its kind's line (`audit.line.<kind>`), but for its time."""


def _time(record: Record) -> str:
    try:
        when = datetime.datetime.fromisoformat(str(record.get("time", "")))
    except ValueError:
        return str(record.get("time", "?"))
    return when.strftime("%Y-%m-%d %H:%M:%S")


def _answer(record: Record, locale: Locale) -> str:
    answer = record.get("answer") or "none"
    key = f"audit.answer.{answer}"
    known = answer in ("once", "session", "always", "deny")
    return text(key if known else "audit.answer.none", locale)


def _decision(record: Record, locale: Locale) -> str:
    """Who decided, and how, in words."""
    by = record.get("decided_by")
    reason = str(record.get("reason", ""))
    answer = _answer(record, locale)
    if by == "rule":
        verdict = record.get("verdict")
        verdict = verdict if verdict in ("deny", "ask") else "allow"
        return text(f"audit.by.rule.{verdict}", locale, reason=reason, answer=answer)
    if by in ("red_line", "classifier", "grant", "user", "accept_edits"):
        return text(f"audit.by.{by}", locale, reason=reason, answer=answer)
    return answer


def _seconds(record: Record) -> str:
    return f"{int(record.get('duration_ms') or 0) / 1000:.1f}"


def _sandbox(record: Record, locale: Locale) -> str:
    sandbox = str(record.get("sandbox") or "none")
    return text("audit.sandbox.none", locale) if sandbox == "none" else sandbox


def _command(record: Record, locale: Locale) -> Fields:
    ran = ""
    if record.get("exit_code") is not None or record.get("timed_out"):
        fields: dict[str, object] = {"sandbox": _sandbox(record, locale)}
        fields["seconds"] = _seconds(record)
        fields |= {"code": record.get("exit_code"), "bytes": record.get("bytes_out", 0)}
        ran = text("audit.timed_out" if record.get("timed_out") else "audit.ran", locale, **fields)
    elif record.get("task"):
        ran = text(
            "audit.started_task", locale, task=record["task"], sandbox=_sandbox(record, locale)
        )
    command = str(record.get("command", ""))
    return {
        "command": command,
        "decision": _decision(record, locale),
        "ran": ran,
    }


def _edit(record: Record, locale: Locale) -> Fields:
    if record.get("review") == "reviewed" and record.get("decided_by") == "user":
        decision = _answer(record, locale)
    else:
        decision = _decision(record, locale)
    outcome = str(record.get("outcome", "failed"))
    known = outcome in ("applied", "partial", "rejected", "failed")
    return {
        "tool": record.get("tool", "edit_file"),
        "path": record.get("path", "?"),
        "hunks": record.get("hunks", 0),
        "decision": decision,
        "outcome": text(f"audit.outcome.{outcome if known else 'failed'}", locale),
    }


def _change(record: Record, locale: Locale) -> Fields:
    action = "kept" if record.get("action") == "kept" else "undone"
    lines = f" {record['lines']}" if record.get("lines") else ""
    return {
        "path": record.get("path", "?"),
        "lines": lines,
        "action": text(f"audit.action.{action}", locale),
        "run": record.get("of_run", "?"),
    }


def _mcp_call(record: Record, locale: Locale) -> Fields:
    if record.get("is_error"):
        result = text("audit.result.error", locale)
    elif record.get("duration_ms") is None:
        result = ""  # refused: the server was never called
    else:
        result = text(
            "audit.result.ok", locale, bytes=record.get("bytes_out", 0), seconds=_seconds(record)
        )
    return {
        "server": record.get("server", "?"),
        "tool": record.get("tool", "?"),
        "decision": _decision(record, locale),
        "result": result,
    }


_NETWORK_BY = {
    "setting": "audit.network.setting",
    "session": "audit.network.session",
    "denied": "audit.network.denied",
    "address": "audit.network.address",
    "sni": "audit.network.sni",
    "limit": "audit.network.limit",
}


def _network(record: Record, locale: Locale) -> Fields:
    host = str(record.get("host", "?"))
    if record.get("port"):
        host = f"{host}:{record['port']}"
    allowed = text("audit.allowed" if record.get("allowed") else "audit.blocked", locale)
    by = str(record.get("decided_by"))
    if by == "user":
        decision = text("audit.network.user", locale, answer=_answer(record, locale))
    elif by in _NETWORK_BY:
        decision = text(_NETWORK_BY[by], locale)
    else:
        decision = _decision(record, locale)
    return {
        "host": host,
        "allowed": allowed,
        "decision": decision,
    }


def _task_state(record: Record, locale: Locale) -> str:
    """The words `kesi.tasks` uses for how a task ended."""
    state, code = record.get("state"), record.get("exit_code")
    if state == "timed_out":
        return text("background.state.timed_out", locale, seconds=f"{record.get('limit_s', 0):g}")
    if state == "stopped":
        return text("background.state.stopped", locale)
    if isinstance(code, int) and code < 0:
        return text("background.state.signal", locale, signal=-code)
    return text("background.state.exited", locale, code="?" if code is None else code)


def _task(record: Record, locale: Locale) -> Fields:
    return {
        "task": record.get("task", "?"),
        "command": record.get("command", ""),
        "state": _task_state(record, locale),
        "seconds": _seconds(record),
        "bytes": record.get("bytes_out", 0),
    }


_LINES: dict[str, Callable[[Record, Locale], Fields]] = {
    "command": _command,
    "edit": _edit,
    "change": _change,
    "mcp_call": _mcp_call,
    "network": _network,
    "task": _task,
}


def record_line(record: Record, locale: Locale) -> str:
    """One record as one line in `locale`."""
    kind = str(record.get("kind"))
    render = _LINES.get(kind)
    if render is not None:
        try:
            return text(f"audit.line.{kind}", locale, time=_time(record), **render(record, locale))
        except (KeyError, TypeError, ValueError):
            pass
    rest = {k: v for k, v in record.items() if k not in ("time", "kind")}
    fields = json.dumps(rest, ensure_ascii=False, sort_keys=True)
    return text(
        "audit.line.other", locale, time=_time(record), kind=record.get("kind"), fields=fields
    )
