"""The KeSi language server (pygls 2): the object that owns one client's state.

It holds what lives as long as the connection -- the link to the editor (wire, documents,
capabilities), the folders' sessions and settings, the runs, the feed that connects the
sessions' change sets to the editor's documents -- each built once, here. Which
features it answers and which agent it runs are chosen by the composition root (`app.py`);
the feature modules import this class, never the other way round. Nothing lives in module
globals, so tests (and the demo) can build as many servers as they like.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO, Final

from lsprotocol import types
from pygls.exceptions import FeatureRequestError
from pygls.lsp.server import LanguageServer

from kesi_lsp import __version__
from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    AgentSettings,
    ConversationStore,
    ParsedSettings,
    Runs,
    Runtime,
    state_directory,
)
from kesi_lsp.lsp.approver import PromptSupport
from kesi_lsp.lsp.capabilities import ClientFeatures
from kesi_lsp.lsp.change_feed import ChangeFeed
from kesi_lsp.lsp.config import ConfigStore
from kesi_lsp.lsp.documents import Documents
from kesi_lsp.lsp.driver import Host
from kesi_lsp.lsp.folders import Folder, Sessions, workspace_folders
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.protocol import KesiProtocol
from kesi_lsp.lsp.reading import serve_frames
from kesi_lsp.lsp.wire import Wire, plain_json_converter

log = logging.getLogger(__name__)

BUSY_SECONDS: Final = 0.03
"""The editor counts as busy this long after its last message (a request and its answer)."""
MEGABYTE: Final = 1 << 20


class KesiServer(LanguageServer):
    """A language server for one client: its folders' sessions, settings and runs."""

    protocol: KesiProtocol

    def __init__(self, runtime: Runtime) -> None:
        super().__init__(
            "kesi-lsp",
            __version__,
            protocol_cls=KesiProtocol,
            converter_factory=plain_json_converter,
        )
        self.wire = Wire(self.protocol)
        self.documents = Documents(lambda: self.workspace)  # pygls' workspace: from initialize
        self.link = EditorLink(self.wire, self.documents)
        self.host = Host(self.link, runtime, PromptSupport())
        self.config = ConfigStore()
        self.sessions = Sessions(conversations(runtime.environ))
        self.change_feed = ChangeFeed(self.link, self.sessions.all)
        self.sessions.on_new = self.change_feed.attach
        self.runs = Runs()
        self.config_ready: asyncio.Future[None] | None = None  # the settings pull under way
        self.preparing: asyncio.Task[None] | None = None  # getting ready for the first run
        self.message_limit = AgentSettings().max_message_megabytes
        """The largest message read from the editor, in megabytes (`maxMessageMegabytes`)."""

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve the editor on `stdin`/`stdout` with KeSi's reader (`reading.py`), which no
        malformed frame can leave deaf, in place of pygls' own loop."""
        self._stop_event = stop = threading.Event()  # pygls' `shutdown` sets it
        try:
            serve_frames(
                self.protocol,
                stdin or sys.stdin.buffer,
                stdout or sys.stdout.buffer,
                stop,
                lambda: self.message_limit * MEGABYTE,
                self.thread_pool,
            )
        finally:  # the client is gone: nothing may try to reach it (and fail, and report it)
            self.wire.closed = True
            self.sessions.kill_tasks()  # no background task outlives the connection
            self.shutdown()  # type: ignore[no-untyped-call]

    def busy(self) -> bool:
        """Whether the editor is talking to the server right now: the agent's loading in the
        background steps aside meanwhile (`kesi_lsp.core.runs.loading`)."""
        return time.monotonic() - self.protocol.last_message < BUSY_SECONDS

    @property
    def features(self) -> ClientFeatures:
        """What the client can do, learnt from `initialize`."""
        return self.link.features

    @features.setter
    def features(self, features: ClientFeatures) -> None:
        self.link.features = features

    def before_change(self, uri: str, change: types.TextDocumentContentChangeEvent) -> None:
        """A text change, before pygls applies it (`KesiProtocol`): hunks follow the typing."""
        self.change_feed.before_change(uri, change)

    def before_close(self, uri: str) -> None:
        self.change_feed.before_close(uri)

    def folders(self) -> list[Folder]:
        return workspace_folders(self.workspace)

    def settings_for(self, folder: Folder | None) -> ParsedSettings:
        """Settings of `folder`; bad values are reported to the user once and defaulted."""
        parsed = self.config.settings_for(folder.uri if folder else None)
        for problem in self.config.new_problems(parsed):
            self.show(problem, types.MessageType.Warning)
        return parsed

    def locale_for(self, folder: Folder | None) -> Locale:
        return self.config.settings_for(folder.uri if folder else None).settings.locale

    def show(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.wire.notify(
            types.WINDOW_SHOW_MESSAGE, types.ShowMessageParams(type=kind, message=message)
        )

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Unexpected errors go to the log, and a one-line notice (no traceback) to the user."""
        log.error("internal error (%s): %s", getattr(source, "__name__", source), error)
        if not self.wire.closed and source is not FeatureRequestError:
            self.show(text("lsp.internal_error", "en", error=str(error)), types.MessageType.Error)


def conversations(environ: Mapping[str, str]) -> ConversationStore | None:
    """Where each folder's conversation is saved between starts (None: the user has no home
    directory to keep it in). Saves still waiting when the process ends are written first."""
    directory = state_directory(environ)
    if directory is None:
        log.warning("no HOME or XDG_STATE_HOME: conversations will not be saved between starts")
        return None
    store = ConversationStore(directory, on_error=_save_failed)
    atexit.register(store.flush)
    return store


def _save_failed(path: Path, exc: OSError) -> None:
    log.warning("could not save the conversation to %s: %s", path, exc)
