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
沒必要擋); a missing or repeated `old_string` gets the seed's texts, and only typing over the
one match refuses the edit as stale.

A landed change is recorded in the run's change set (`ctx.changes`, design §2.9), so the user can
keep or undo it hunk by hunk later.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

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
from kesi_lsp.core.reads.parts import seen
from kesi_lsp.core.tools import ranged
from kesi_lsp.core.tools.audited import audit_edit
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.tools.typed_over import typed_over
from kesi_lsp.core.workspace import DeliveryStatus, FileChange, FileText

MAX_READ_BYTES: Final = 262_144
"""The largest text read_file returns at once: a whole file without a range, or a part with a
`limit`. A larger file is read in parts (`kesi_lsp.core.tools.ranged`): the whole text would
be resent with every request."""


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


async def read_file(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Return a file's whole text, or a numbered part of it (`offset`, `limit`), and record the
    digest of the whole text; a failure to read clears an old record.

    Without a range, a file that fits in MAX_READ_BYTES comes back whole and exact (the seed's
    read); a larger one comes back as its first part, saying so, instead of being refused.
    """
    root, raw = ctx.session.root, args["file_path"]
    offset, limit = args.get("offset"), args.get("limit")
    bad = ranged.check_range(offset, limit)
    if bad is not None:  # nothing was read: every record stays as it was
        return _error(ctx, bad.key, **bad.fields)
    written_as, found = await asyncio.to_thread(_locate_read, root, raw)
    if isinstance(found, str):
        _forget(ctx, written_as)
        return _error(ctx, found, path=raw)
    if written_as != found.path:  # read through another name: the old name's record is void
        _forget(ctx, written_as)
    current = await _current_text(ctx, found.path, raw)
    if isinstance(current, ToolResult):
        _forget(ctx, found.path)
        return current
    content = current.text
    size = len(content.encode("utf-8", "surrogatepass"))
    whole = offset is None and limit is None and size <= MAX_READ_BYTES
    if whole or (not content and (offset or 1) == 1):
        ctx.session.reads[found.path] = text_digest(content)
        ctx.session.read_parts.pop(found.path, None)
        ctx.session.read_texts.remember(found.path, content)
        return ToolResult(content or text("tools.read.empty", ctx.locale))
    return _read_part(ctx, found.path, raw, content, offset, limit, size)


def _read_part(
    ctx: ToolContext,
    path: Path,
    raw: str,
    content: str,
    offset: int | None,
    limit: int | None,
    size: int,
) -> ToolResult:
    """A numbered part of `content`; the lines it shows are added to what was seen of it."""
    cap = MAX_READ_BYTES if limit is not None else ranged.MAX_PART_BYTES
    part = ranged.select(content, offset, limit, byte_cap=cap, path=raw, locale=ctx.locale)
    if isinstance(part, ranged.RangeError):  # the file is there: its record stays
        return _error(ctx, part.key, **part.fields)
    digest = text_digest(content)
    ctx.session.reads[path] = digest
    ctx.session.read_texts.remember(path, content)
    parts = seen(ctx.session.read_parts.get(path), digest, part.total, (part.first, part.last))
    if parts.whole:
        ctx.session.read_parts.pop(path, None)
    else:
        ctx.session.read_parts[path] = parts
    out = part.body + "\n" + ranged.footer(part, raw, ctx.locale)
    if offset is None and limit is None:  # a big file read without a range: say why a part
        out += "\n" + text("tools.read.partial_view", ctx.locale, path=raw, size=size)
    return ToolResult(out, summary=ranged.summary(part, ctx.locale))


def _forget(ctx: ToolContext, path: Path | None) -> None:
    """Drop what the session knew it had read of `path` (the seed clears it on a failed read)."""
    if path is not None:
        ctx.session.reads.pop(path, None)
        ctx.session.read_parts.pop(path, None)
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
        return refused
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


def _match_refusal(
    ctx: ToolContext, path: Path, content: str, old: str, first: int
) -> ToolResult | None:
    """Why `old` (found at `first`, -1: not found) cannot be replaced in `content`, or None.

    Day 9: a missing or repeated `old_string` gets the seed's own texts, with a short note when
    the user changed the file since the read (「不相干的變動沒必要擋」: typing elsewhere never
    refuses). The one stricter rule: typing that touched the one match refuses it as stale, as
    `count = 1` typed into `count = 10` would otherwise become `count = 20`. Without a record of
    the read (or of its text) a unique match is the seed's own evidence."""
    record = ctx.session.reads.get(path)
    changed = record is not None and record != text_digest(content)
    if first == -1 or content.find(old, first + 1) != -1:
        key = "tools.edit.no_match" if first == -1 else "tools.edit.ambiguous"
        said = text(key, ctx.locale)
        if changed:
            said += text("tools.edit.changed_note", ctx.locale)
        return ToolResult(said, True)
    seen = ctx.session.read_texts.get(path) if changed else None
    if seen is not None and typed_over(seen, content, first, len(old)):
        return _error(ctx, "tools.edit.stale")
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
    parts = ctx.session.read_parts.get(found.path)
    if parts is not None and parts.digest == record:
        return _error(
            ctx, "tools.write.read_in_part", path=raw, seen=parts.describe(), total=parts.total
        )
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
    """Hand a fully checked change to the workspace view and report what became of it, with
    what the editor's language servers newly report once it settled (design §2.10)."""
    refusal = ctx.gate.edit_refusal(change.path)  # the user's edit rules: deny first
    if refusal is not None:
        await audit_edit(ctx, change, None, review=False)
        return ToolResult(refusal, True)
    watch = ctx.problems
    before = await watch.before([change.path]) if watch is not None else None
    review = ctx.gate.needs_review(change.path)
    if ctx.changes is not None:
        delivery = await ctx.changes.deliver(ctx.view, change, review=review)
        emit_dropped(ctx.changes, ctx.emit, ctx.locale)
    else:
        delivery = await ctx.view.deliver(change, review=review)
    await audit_edit(ctx, change, delivery, review=review)
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
    said = f"{done} {delivery.note}" if delivery.note else done
    if watch is not None and before is not None:
        problems = await watch.after([change.path], [change.rel], before, ctx.emit)
        return ToolResult(f"{said}\n{problems}", summary=said)
    return ToolResult(said)
