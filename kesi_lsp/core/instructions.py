"""Project instructions: the repository's AGENTS.md (else CLAUDE.md), in the cached prefix.

The book's chapter on coding agents: instruction files are injected every session as the
project's own system prompt (its build and test commands, its style, what not to touch), and
being stable they are the cheapest prefix to cache. So the file's text goes into the system
prompt right after KeSi's rules and before the cache breakpoint: after the first request it
costs cache reads, not fresh input (design §2.11).

The file arrives with the repository, so it is data from the project, not from the user: the
block says where it came from, it is never parsed for settings, and nothing here can change a
setting, a permission or the fence — it is only text for the model. It must be a UTF-8 file
inside the folder (a symlink out of it, or to an ignored file, is not followed: the notice says
why), at most `MAX_BYTES` (a longer one is cut, with a notice). It is looked at (one `stat`)
before every request and read again only when it changed; the first run of a session, and the
first after a change, say what was loaded.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.paths import is_ignored

NAMES: Final = ("AGENTS.md", "CLAUDE.md")
MAX_BYTES: Final = 32 * 1024

Signature = tuple[str, int, int, int] | None
"""(name, inode, size, mtime in ns) of the file found; None when there is none."""


@dataclass(frozen=True)
class Loaded:
    """Instructions that go into the prompt: `text` (cut to MAX_BYTES) of a `size`-byte file."""

    name: str
    text: str
    size: int
    cut: bool


@dataclass(frozen=True)
class NotLoaded:
    """A file that is there but is not loaded; `reason` is the catalog key saying why."""

    name: str
    reason: str


Found = Loaded | NotLoaded | None


def _signature(root: Path) -> Signature:
    for name in NAMES:
        try:
            info = (root / name).lstat()
        except OSError:
            continue
        if stat.S_ISLNK(info.st_mode):
            try:
                info = (root / name).stat()
            except OSError:
                return (name, -1, -1, -1)  # a dangling link: there, but unreadable
        return (name, info.st_ino, info.st_size, info.st_mtime_ns)
    return None


def _read_head(path: Path) -> tuple[bytes, int] | None:
    """The first MAX_BYTES + 3 bytes of a regular file and its size (None: not regular)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None
        return handle.read(MAX_BYTES + 3), info.st_size


def _decode(data: bytes, size: int) -> tuple[str, bool] | None:
    """The text of the head read (cut at a character boundary), whether it is cut; None when
    it is not UTF-8."""
    cut = size > MAX_BYTES
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        value = decoder.decode(data[:MAX_BYTES] if cut else data, final=not cut)
    except UnicodeDecodeError:
        return None
    return value, cut


def load(root: Path, name: str) -> Found:
    """Read `name` at the root of the folder `root` (resolved) and judge it."""
    path = root / name
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return NotLoaded(name, "instructions.unreadable")
    if not target.is_relative_to(root):
        return NotLoaded(name, "instructions.outside")
    if is_ignored(root, target):
        return NotLoaded(name, "instructions.ignored")
    if not target.is_file():
        return NotLoaded(name, "instructions.not_file")
    try:
        head = _read_head(target)
    except OSError:
        return NotLoaded(name, "instructions.unreadable")
    if head is None:
        return NotLoaded(name, "instructions.not_file")
    decoded = _decode(*head)
    if decoded is None:
        return NotLoaded(name, "instructions.not_utf8")
    value, cut = decoded
    return Loaded(name, value, head[1], cut)


@dataclass
class ProjectInstructions:
    """A session's view of its folder's instruction file: what is loaded, what was said."""

    signature: Signature = None
    found: Found = None
    announced: Signature | bool = False  # False: nothing said yet in this session
    _checked: bool = field(default=False, repr=False)

    async def refresh(self, root: Path) -> None:
        """Look at the file (one stat) and read it again if it changed."""
        signature = await asyncio.to_thread(_signature, root)
        if self._checked and signature == self.signature:
            return
        self._checked = True
        self.signature = signature
        self.found = (
            None if signature is None else await asyncio.to_thread(load, root, signature[0])
        )

    def take_notice(self, locale: Locale) -> str | None:
        """What to tell the user now (then it counts as said): on the first run of the session
        when there is a file, and whenever the file changed since it was last announced."""
        if self.announced is not False and self.announced == self.signature:
            return None
        had_file = self.announced not in (False, None)
        self.announced = self.signature
        found = self.found
        if found is None:
            return text("instructions.removed", locale) if had_file else None
        if isinstance(found, NotLoaded):
            reason = text(found.reason, locale)
            return text("instructions.refused", locale, path=found.name, reason=reason)
        key = "instructions.reloaded" if had_file else "instructions.loaded"
        said = text(key, locale, path=found.name, size=_size(found.size))
        if found.cut:
            said += " " + text("instructions.cut", locale, limit=_size(MAX_BYTES))
        return said

    def block(self, locale: Locale) -> str | None:
        """The system prompt block, or None when nothing is loaded."""
        found = self.found
        if not isinstance(found, Loaded):
            return None
        parts = [text("instructions.block", locale, path=found.name)]
        if found.cut:
            shown = _size(len(found.text.encode("utf-8")))
            parts.append(
                text("instructions.block_cut", locale, shown=shown, size=_size(found.size))
            )
        parts += [f'<project_instructions path="{found.name}">', found.text.rstrip("\n")]
        parts.append("</project_instructions>")
        return "\n".join(parts)


def _size(count: int) -> str:
    """`812 bytes`, `2.1 KB`, `32 KB`: sizes as a person reads them."""
    if count < 1024:
        return f"{count} bytes"
    kilo = count / 1024
    return f"{kilo:.0f} KB" if kilo >= 10 or kilo == int(kilo) else f"{kilo:.1f} KB"
