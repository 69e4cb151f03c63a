"""read_file, edit_file and write_file (seed Days 06, 09 and 10).

The text a tool works on is the text the user sees (`ctx.view.read_text`: the editor buffer
when open, else disk), and a change is only handed to `ctx.view.deliver` after every check the
seed makes has passed: the fence, the ignore list, exact and unique matching, and for
overwriting, a current read record whose sha256 matches the text as it is now.

`session.reads` maps a resolved path to the sha256 (hex) of the UTF-8 encoding of exactly the
text `read_file` returned; `session.read_texts` keeps that text for a while. A failed read
clears the record; a successful edit or write clears it too (the text the model read is no
longer the file's). If a record exists and the text changed since (the user typed after the
agent read), write_file refuses as stale; edit_file lands on the current text when its
`old_string` is still there, unique, and the typing did not touch it (seed Day 9: 不相干的變動
沒必要擋), and refuses as stale otherwise.

A landed change is recorded in the run's change set (`ctx.changes`, design §2.9), so the user can
keep or undo it hunk by hunk later.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kesi_lsp.catalog import text
from kesi_lsp.core.approval import Choice
from kesi_lsp.core.changes.run import emit_dropped
from kesi_lsp.core.diff import unified_diff
from kesi_lsp.core.events import EditApplied
from kesi_lsp.core.paths import (
    is_ignored,
    names_ignored,
    relative,
    safe_path,
    safe_write_path,
)
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.tools.typed_over import typed_over
from kesi_lsp.core.workspace import DeliveryStatus, FileChange, FileText

MAX_READ_BYTES: Final = 262_144
"""read_file refuses larger files: the whole text would be resent with every request."""


def text_digest(value: str) -> str:
    """sha256 (hex) of the UTF-8 encoding of `value`: what `session.reads` records."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class _Existing:
    """An existing regular file that passed the fence and the ignore list."""

    path: Path
    size: int


def _locate_existing(root: Path, raw: str, ignored_key: str, not_file_key: str) -> _Existing | str:
    """Find an existing, allowed regular file; else return the catalog key of the refusal."""
    target = safe_path(root, raw)
    if target is None:
        return "tools.read.not_found"
    if is_ignored(root, target) or names_ignored(root, raw):
        return ignored_key
    try:
        info = target.stat()
    except OSError:
        return "tools.read.not_found"
    if not target.is_file():
        return not_file_key
    return _Existing(target, info.st_size)


def _locate_read(root: Path, raw: str) -> tuple[Path | None, _Existing | str]:
    """Where an old read record of `raw` would be kept, and the file to read now (or why not)."""
    written_as = safe_write_path(root, raw)
    return written_as, _locate_existing(root, raw, "tools.read.ignored", "tools.read.not_file")


def _error(ctx: ToolContext, key: str, **fields: object) -> ToolResult:
    return ToolResult(text(key, ctx.locale, **fields), True)


async def _current_text(ctx: ToolContext, path: Path, raw: str) -> FileText | ToolResult:
    """The text the user sees now, or the error result the seed gives for a failed read."""
    try:
        return await ctx.view.read_text(path)
    except UnicodeDecodeError:
        return _error(ctx, "tools.read.not_utf8", path=raw)
    except FileNotFoundError:
        return _error(ctx, "tools.read.not_found", path=raw)
    except IsADirectoryError:
        return _error(ctx, "tools.read.not_file", path=raw)
    except OSError as exc:
        return _error(ctx, "tools.read.os_error", path=raw, error=exc.strerror or exc)


async def read_file(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """Return a file's whole text and record its digest; any failure clears an old record."""
    root, raw = ctx.session.root, args["file_path"]
    written_as, found = await asyncio.to_thread(_locate_read, root, raw)
    if written_as is not None:
        _forget(ctx, written_as)
    if isinstance(found, str):
        return _error(ctx, found, path=raw)
    _forget(ctx, found.path)
    if found.size > MAX_READ_BYTES:
        return _error(ctx, "tools.read.too_large", path=raw, size=found.size, limit=MAX_READ_BYTES)
    current = await _current_text(ctx, found.path, raw)
    if isinstance(current, ToolResult):
        return current
    size = len(current.text.encode("utf-8", "surrogatepass"))
    if size > MAX_READ_BYTES:
        return _error(ctx, "tools.read.too_large", path=raw, size=size, limit=MAX_READ_BYTES)
    ctx.session.reads[found.path] = text_digest(current.text)
    ctx.session.read_texts.remember(found.path, current.text)
    return ToolResult(current.text or text("tools.read.empty", ctx.locale))


def _forget(ctx: ToolContext, path: Path) -> None:
    """Drop what the session knew it had read of `path` (the seed clears it on a failed read)."""
    ctx.session.reads.pop(path, None)
    ctx.session.read_texts.forget(path)


def _start_line(content: str, offset: int) -> int:
    """1-based line of `offset`, counting LF, CR and CRLF line ends (CRLF once)."""
    prefix = content[:offset]
    return prefix.count("\n") + prefix.count("\r") - prefix.count("\r\n") + 1


async def edit_file(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """Replace the one exact occurrence of old_string with new_string, then deliver."""
    raw, old, new = args["file_path"], args["old_string"], args["new_string"]
    if not old:
        return _error(ctx, "tools.edit.old_empty")
    if old == new:
        return _error(ctx, "tools.edit.same")
    root = ctx.session.root
    found = await asyncio.to_thread(
        _locate_existing, root, raw, "tools.edit.ignored", "tools.edit.not_file"
    )
    if isinstance(found, str):
        return _error(ctx, found, path=raw)
    current = await _current_text(ctx, found.path, raw)
    if isinstance(current, ToolResult):
        return current
    content = current.text
    first = content.find(old)
    refused = _match_refusal(ctx, found.path, content, old, first)
    if refused is not None:
        return _error(ctx, refused)
    after = content[:first] + new + content[first + len(old) :]
    try:
        after.encode("utf-8")
    except UnicodeEncodeError:
        return _error(ctx, "tools.edit.encode")
    change = FileChange(
        "edit_file", found.path, relative(root, found.path), content, after, current.version
    )
    done = text("tools.edit.done", ctx.locale, line=_start_line(content, first))
    return await _deliver(ctx, change, done)


def _match_refusal(ctx: ToolContext, path: Path, content: str, old: str, first: int) -> str | None:
    """Why `old` (found at `first`, -1: not found) cannot be replaced in `content`, or None.

    Day 9: typing since the read only refuses the edit when it touched the replaced text (or
    made it vanish or repeat); then the model is told to read again. Without a record of the
    read (or of its text) a unique match is the seed's own evidence."""
    record = ctx.session.reads.get(path)
    changed = record is not None and record != text_digest(content)
    unique = first != -1 and content.find(old, first + 1) == -1
    if changed and not unique:
        return "tools.edit.stale"
    if first == -1:
        return "tools.edit.no_match"
    if not unique:
        return "tools.edit.ambiguous"
    seen = ctx.session.read_texts.get(path) if changed else None
    if seen is not None and typed_over(seen, content, first, len(old)):
        return "tools.edit.stale"
    return None


@dataclass(frozen=True)
class _WriteTarget:
    path: Path
    exists: bool


def _locate_write(root: Path, raw: str) -> _WriteTarget | str:
    target = safe_write_path(root, raw)
    if target is None:
        return "tools.write.not_allowed"
    if is_ignored(root, target) or names_ignored(root, raw):
        return "tools.write.ignored"
    if target.is_symlink() or target.exists():
        if not target.is_file():
            return "tools.write.not_file"
        return _WriteTarget(target, exists=True)
    return _WriteTarget(target, exists=False)


async def write_file(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """Create a new file exclusively, or overwrite a file read in its current version."""
    raw, content = args["file_path"], args["content"]
    try:
        size = len(content.encode("utf-8"))
    except UnicodeEncodeError:
        return _error(ctx, "tools.write.encode")
    root = ctx.session.root
    found = await asyncio.to_thread(_locate_write, root, raw)
    if isinstance(found, str):
        return _error(ctx, found, path=raw)
    rel = relative(root, found.path)
    if not found.exists:
        change = FileChange("write_file", found.path, rel, None, content)
        done = text("tools.write.created", ctx.locale, path=raw, size=size)
        return await _deliver(ctx, change, done)
    record = ctx.session.reads.get(found.path)
    if record is None:
        return _error(ctx, "tools.write.read_first")
    try:
        current = await ctx.view.read_text(found.path)
    except (OSError, UnicodeDecodeError) as exc:
        _forget(ctx, found.path)
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return _error(ctx, "tools.write.check_failed", path=raw, error=detail)
    if text_digest(current.text) != record:
        _forget(ctx, found.path)
        return _error(ctx, "tools.write.stale")
    if current.text == content:
        return ToolResult(text("tools.write.same", ctx.locale))
    change = FileChange("write_file", found.path, rel, current.text, content, current.version)
    done = text("tools.write.overwritten", ctx.locale, path=raw, size=size)
    return await _deliver(ctx, change, done)


async def _deliver(ctx: ToolContext, change: FileChange, done: str) -> ToolResult:
    """Hand a fully checked change to the workspace view and report what became of it."""
    refusal = ctx.gate.edit_refusal(change.path)  # the user's edit rules: deny first
    if refusal is not None:
        return ToolResult(refusal, True)
    review = ctx.gate.needs_review(change.path)
    if ctx.changes is not None:
        delivery = await ctx.changes.deliver(ctx.view, change, review=review)
        emit_dropped(ctx.changes, ctx.emit, ctx.locale)
    else:
        delivery = await ctx.view.deliver(change, review=review)
    if delivery.status is DeliveryStatus.REJECTED:
        refusal = delivery.reason or text("permissions.refused_edit", ctx.locale)
        return ToolResult(refusal, True)
    _forget(ctx, change.path)
    if delivery.status is DeliveryStatus.FAILED:
        reason = delivery.reason or text("tools.delivery_failed", ctx.locale, path=change.rel)
        return ToolResult(reason, True)
    if delivery.choice is Choice.ALLOW_SESSION:
        ctx.gate.remember_file(change.path)
    landed = delivery.text if delivery.text is not None else change.after
    diff = await asyncio.to_thread(unified_diff, change.rel, change.before, landed)
    with contextlib.suppress(Exception):  # a broken sink must not misreport a landed edit
        ctx.emit(EditApplied(change.tool, change.rel, diff))
    return ToolResult(f"{done} {delivery.note}" if delivery.note else done)
