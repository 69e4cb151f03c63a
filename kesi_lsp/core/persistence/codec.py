"""A saved conversation as JSON, and back, trusting nothing on the way in.

What is saved is what the next start needs to go on: the history, the read records (relative
paths and their sha256) and the bill. Grants are never saved (Day 14: a permission holds for
one session), nor are settings. Reading a file back checks everything a broken or edited file
could get wrong — the version, the folder, the shape of every message, that the history is one
a strict Messages API accepts, that the read records stay inside the folder — and any failure
is a `CorruptConversationError` with a sentence saying what was wrong.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.history import check_history

if TYPE_CHECKING:
    from anthropic.types import MessageParam

    from kesi_lsp.core.session import Session

VERSION: Final = 1
_USAGE_FIELDS: Final = tuple(f.name for f in dataclasses.fields(Usage))


class CorruptConversationError(ValueError):
    """A saved conversation that cannot be trusted; the message says why."""


@dataclass(frozen=True)
class Saved:
    """A conversation read back from disk (not yet sealed if it was saved mid-run)."""

    history: list[MessageParam]
    reads: dict[Path, str]
    usage: Usage
    saved_at: datetime.datetime
    running: bool


def encode(session: Session, *, running: bool, now: datetime.datetime) -> bytes:
    """The session's conversation as UTF-8 JSON."""
    root = session.root
    reads = {
        path.relative_to(root).as_posix(): digest
        for path, digest in session.reads.items()
        if path.is_relative_to(root) and not _read_in_part(session, path, digest)
    }
    data = {
        "version": VERSION,
        "root": str(root),
        "savedAt": now.isoformat(timespec="seconds"),
        "running": running,
        "history": session.history,
        "reads": reads,
        "usage": dataclasses.asdict(session.usage),
    }
    return json.dumps(data, ensure_ascii=False, default=_plain).encode("utf-8")


def _read_in_part(session: Session, path: Path, digest: str) -> bool:
    """A file read only in parts is not saved as read: its parts are not saved, so after a
    resume write_file would take it for a whole read (it asks for a read first instead)."""
    parts = session.read_parts.get(path)
    return parts is not None and parts.digest == digest


def _plain(value: object) -> object:
    """SDK objects that slipped into the history are written as their JSON form."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", exclude_none=True)
    raise TypeError(f"cannot save {type(value).__name__}")


def decode(raw: bytes, root: Path) -> Saved:
    """A saved conversation of the folder `root`; CorruptConversationError when it is not one."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CorruptConversationError(f"not JSON: {exc}") from exc
    if not isinstance(data, Mapping):
        raise CorruptConversationError("not a JSON object")
    if data.get("version") != VERSION:
        raise CorruptConversationError(f"unknown version {data.get('version')!r}")
    if data.get("root") != str(root):
        raise CorruptConversationError("saved for another folder")
    return Saved(
        history=_history(data.get("history")),
        reads=_reads(data.get("reads"), root),
        usage=_usage(data.get("usage")),
        saved_at=_time(data.get("savedAt")),
        running=data.get("running") is True,
    )


def _history(value: object) -> list[MessageParam]:
    if not isinstance(value, list):
        raise CorruptConversationError("the history is not a list")
    for i, message in enumerate(value):
        if not isinstance(message, Mapping) or message.get("role") not in ("user", "assistant"):
            raise CorruptConversationError(f"message {i} is not a message")
        content = message.get("content")
        blocks_ok = isinstance(content, list) and all(
            isinstance(b, Mapping) and isinstance(b.get("type"), str) for b in content
        )
        if not isinstance(content, str) and not blocks_ok:
            raise CorruptConversationError(f"message {i} has malformed content")
    history: list[Any] = list(value)
    # A history saved mid-run may end with unanswered tool calls: sealed later, not corrupt.
    problems = [p for p in check_history(history) if not _dangling(p, len(history))]
    if problems:
        raise CorruptConversationError(problems[0])
    return history


def _dangling(problem: str, length: int) -> bool:
    return problem.endswith(f"in message {length - 1} is not answered")


def _reads(value: object, root: Path) -> dict[Path, str]:
    if not isinstance(value, Mapping):
        raise CorruptConversationError("the read records are not an object")
    reads: dict[Path, str] = {}
    for rel, digest in value.items():
        path = (root / str(rel)).resolve()
        valid = isinstance(digest, str) and len(digest) == 64
        if not valid or not path.is_relative_to(root) or path == root:
            raise CorruptConversationError(f"a read record is malformed: {rel!r}")
        reads[path] = digest
    return reads


def _usage(value: object) -> Usage:
    if not isinstance(value, Mapping):
        raise CorruptConversationError("the bill is not an object")
    fields: dict[str, Any] = {}
    for name in _USAGE_FIELDS:
        item = value.get(name, 0 if name != "partial" else False)
        if isinstance(item, bool) != (name == "partial") or not isinstance(item, int | float):
            raise CorruptConversationError(f"the bill's {name} is malformed")
        fields[name] = item
    return Usage(**fields)


def _time(value: object) -> datetime.datetime:
    try:
        return datetime.datetime.fromisoformat(str(value))
    except ValueError as exc:
        raise CorruptConversationError("the time it was saved is malformed") from exc
