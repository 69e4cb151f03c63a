"""Resume: each folder's conversation survives a restart of the editor (Day 04's --continue).

Day 04 describes Claude Code's `claude --continue`: the last conversation comes back from its
records. KeSi keeps one conversation per workspace folder — its history, read records and bill,
never its grants — in the user's state directory (`$XDG_STATE_HOME/kesi/conversations`, else
`~/.local/state/kesi/conversations`; never inside the workspace, where the agent's own tools
could read or change it). It is saved after every round (`Session.checkpoint`), atomically and
off the event loop (`writer.py`), in a file only the user can read.

On the next start, the first run in the folder continues it, and says so first. A conversation
saved in the middle of a run (the editor was closed, the server killed) is sealed as the seed's
Ctrl-C seals one (Days 12 and 17): unanswered tool calls get "interrupted; whether this tool ran
is unknown", and the round ends with the interruption note, so the next request is valid. A
file that cannot be read or trusted (`codec.py` says why) is moved aside, kept beside the new
one for the user to look at, and the folder starts fresh with a notice. `kesi.reset` deletes
the file with the conversation.
"""

from __future__ import annotations

import datetime
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from kesi_lsp.catalog import Locale, reset_command, text
from kesi_lsp.core.history import add_assistant, seal_dangling_tool_use, tool_uses
from kesi_lsp.core.persistence.codec import CorruptConversationError, Saved, decode, encode
from kesi_lsp.core.persistence.writer import ErrorSink, Writer
from kesi_lsp.core.redaction import redactor_for
from kesi_lsp.core.redaction.values import redact_value
from kesi_lsp.core.session import Session

if TYPE_CHECKING:
    from anthropic.types import MessageParam

__all__ = ["ConversationStore", "state_directory"]

FOLDER: Final = ("kesi", "conversations")


def state_directory(environ: Mapping[str, str]) -> Path | None:
    """Where conversations are kept for the user whose environment this is (None: no home).

    The XDG Base Directory rule: `$XDG_STATE_HOME` when it is an absolute path, else
    `$HOME/.local/state`.
    """
    xdg = environ.get("XDG_STATE_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg).joinpath(*FOLDER)
    home = environ.get("HOME", "")
    if home and Path(home).is_absolute():
        return Path(home, ".local", "state").joinpath(*FOLDER)
    return None


def _now() -> datetime.datetime:
    return datetime.datetime.now().astimezone()


@dataclass
class ConversationStore:
    """The saved conversations of one user, one file per workspace folder.

    `on_error` hears every failed write (from the writer's thread: it should only log); the
    session also gets a notice for its next run, the first time its file fails.
    """

    directory: Path
    on_error: ErrorSink | None = None
    _writer: Writer = field(init=False)
    _closed: set[Path] = field(default_factory=set)  # folders this store will not save
    _sessions: dict[Path, Session] = field(default_factory=dict)  # by file
    _failing: set[Path] = field(default_factory=set)  # files whose last write failed

    def __post_init__(self) -> None:
        self._writer = Writer(self._failed)

    def _failed(self, path: Path, exc: OSError) -> None:
        if self.on_error is not None:
            self.on_error(path, exc)
        session = self._sessions.get(path)
        if session is not None and path not in self._failing:
            self._failing.add(path)
            error = exc.strerror or str(exc)
            locale = session.settings.locale
            session.notices.append(text("resume.save_failed", locale, path=str(path), error=error))

    def file_for(self, root: Path) -> Path:
        """The file of the folder `root`: its name, and a hash of its whole path."""
        digest = hashlib.sha256(str(root).encode("utf-8", "surrogatepass")).hexdigest()[:16]
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", root.name)[:40] or "folder"
        return self.directory / f"{name}-{digest}.json"

    def open(self, session: Session) -> list[str]:
        """Bring back the folder's saved conversation into `session` (fresh), start saving
        it after every round, and say what the first run should say about it (returned, and
        added to `session.notices`)."""
        notes = self._open(session)
        session.notices.extend(notes)
        return notes

    def _open(self, session: Session) -> list[str]:
        locale = session.settings.locale
        root = session.root
        if self._inside(root):
            self._closed.add(root)
            return [text("resume.inside", locale, directory=str(self.directory))]
        session.on_checkpoint = self.checkpoint
        path = self.file_for(root)
        self._sessions[path] = session
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as exc:
            return [self._set_aside(path, root, exc.strerror or str(exc), locale)]
        try:
            saved = decode(raw, root)
        except CorruptConversationError as exc:
            return [self._set_aside(path, root, str(exc), locale)]
        return self._restore(session, saved)

    def checkpoint(self, session: Session, running: bool) -> None:
        """`Session.on_checkpoint`: save the conversation as it is now."""
        if session.root in self._closed:
            return
        data = encode(session, running=running, now=_now())
        self._writer.submit(self.file_for(session.root), data)

    def forget(self, root: Path) -> None:
        """Delete the folder's saved conversation (`kesi.reset`)."""
        if root not in self._closed:
            self._writer.submit(self.file_for(root), None)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every save so far is on disk (at shutdown, and in tests)."""
        return self._writer.flush(timeout)

    def _inside(self, root: Path) -> bool:
        try:
            return self.directory.resolve().is_relative_to(root)
        except OSError:
            return True

    def _set_aside(self, path: Path, root: Path, reason: str, locale: Locale) -> str:
        """Keep a bad file beside the new one; if it cannot be moved, save nothing over it."""
        stamp = _now().strftime("%Y%m%d-%H%M%S")
        kept = path.with_name(f"{path.stem}.corrupt-{stamp}{path.suffix}")
        try:
            path.rename(kept)
        except OSError:
            self._closed.add(root)
            return text("resume.unreadable_kept", locale, reason=reason, path=str(path))
        return text("resume.corrupt", locale, reason=reason, path=str(kept))

    def _restore(self, session: Session, saved: Saved) -> list[str]:
        locale = session.settings.locale
        # A conversation saved before redaction (issue 29) may hold secrets: they reached the
        # model then and cannot be taken back, but they never go out again, and the file is
        # rewritten without them.
        history = redact_value(saved.history, redactor_for({}, locale))
        session.history[:] = history
        session.reads.clear()
        session.reads.update(saved.reads)
        session.usage = saved.usage
        if not saved.history:
            return []
        notes = [
            text(
                "resume.continued",
                locale,
                when=saved.saved_at.strftime("%Y-%m-%d %H:%M"),
                messages=len(saved.history),
                cost=f"{saved.usage.cost_usd:.4f}",
                reset=reset_command(session.settings.editor, locale),
            )
        ]
        if saved.running:
            _seal(session.history, locale)
            notes.append(text("resume.interrupted", locale))
        if saved.running or history is not saved.history:
            self.checkpoint(session, False)
        return notes


def _seal(history: list[MessageParam], locale: Locale) -> None:
    """Close a round cut short by the end of the process, as Ctrl-C closes one."""
    if not history:
        return
    last = history[-1]
    if last["role"] == "assistant" and tool_uses(last["content"]):
        seal_dangling_tool_use(history, locale)
        add_assistant(history, text("loop.interrupted_tools", locale))
    elif last["role"] == "user":
        add_assistant(history, text("loop.interrupted_stream", locale))
