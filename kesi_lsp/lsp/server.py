"""The KeSi language server (pygls 2): the object that owns a client's state, and `serve`.

`create_server` builds a `KesiServer` and registers each feature module in order; nothing
lives in module globals, so tests (and the demo) can build as many servers as they like.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import FeatureRequestError
from pygls.lsp.server import LanguageServer

from kesi_lsp import __version__
from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.persistence import ConversationStore, state_directory
from kesi_lsp.lsp.approver import PromptSupport
from kesi_lsp.lsp.capabilities import ClientFeatures
from kesi_lsp.lsp.config import ConfigStore, Parsed
from kesi_lsp.lsp.delivery import EditorLink
from kesi_lsp.lsp.documents import DiskTexts, Documents
from kesi_lsp.lsp.driver import AgentRunner, Host, Sandboxes
from kesi_lsp.lsp.folders import Folder, Sessions, workspace_folders
from kesi_lsp.lsp.runs import Runs
from kesi_lsp.lsp.wire import Wire, plain_json_converter

log = logging.getLogger(__name__)


class KesiServer(LanguageServer):
    """A language server for one client: its folders' sessions, settings and runs."""

    def __init__(
        self,
        environ: Mapping[str, str],
        runner: AgentRunner,
        compaction: AgentRunner | None = None,
    ) -> None:
        super().__init__("kesi-lsp", __version__, converter_factory=plain_json_converter)
        self.environ = dict(environ)
        self.runner = runner
        self.compaction = compaction or runner  # what `kesi.compact` runs
        self.wire = Wire(self.protocol)
        self.features = ClientFeatures()
        self.config = ConfigStore()
        self.sessions = Sessions(_conversations(self.environ))
        self.runs = Runs()
        self.prompts = PromptSupport()
        self.sandboxes = Sandboxes(self.environ)
        self.told_edits_accepted: set[Path] = set()  # folders told edits land unreviewed
        self.disk_texts = DiskTexts()
        self.disk_texts.buffer_text = lambda path: self.documents.buffer_text(path)
        self.config_ready: asyncio.Future[None] | None = None  # the settings pull under way

    @property
    def documents(self) -> Documents:
        return Documents(self.workspace, self.disk_texts)

    def folders(self) -> list[Folder]:
        return workspace_folders(self.workspace)

    def host(self, runner: AgentRunner | None = None) -> Host:
        """What a run needs from the server; `runner` other than the agent (kesi.compact)."""
        link = EditorLink(self.wire, self.features, self.documents, self.workspace.position_codec)
        return Host(
            link,
            self.prompts,
            runner or self.runner,
            self.environ,
            self.sandboxes,
            self.told_edits_accepted,
        )

    def settings_for(self, folder: Folder | None) -> Parsed:
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


def _conversations(environ: Mapping[str, str]) -> ConversationStore | None:
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


def create_server(
    environ: Mapping[str, str] | None = None, runner: AgentRunner | None = None
) -> KesiServer:
    """A ready-to-start server. `runner` defaults to the real agent loop."""
    from kesi_lsp.lsp import code_actions, commands, documents_sync, lifecycle
    from kesi_lsp.lsp.agent import run_core_agent, run_core_compaction

    environ = os.environ if environ is None else environ
    server = KesiServer(environ, runner or run_core_agent, run_core_compaction)
    for feature in (lifecycle, documents_sync, commands, code_actions):
        feature.register(server)
    return server


def serve(args: argparse.Namespace) -> int:
    """Run the server on stdio (or TCP with --tcp) until the client says exit."""
    server = create_server()
    if args.tcp:
        server.start_tcp(args.host, args.port)
        return 0
    return serve_stdio(server)


def serve_stdio(server: KesiServer) -> int:
    """Serve one client on stdin/stdout, keeping stdout for JSON-RPC alone.

    File descriptor 1 is the JSON-RPC channel and nothing else may reach it: the channel gets
    a private duplicate, and fd 1 (and Python's sys.stdout) are pointed at stderr, so a stray
    print or a child process inheriting stdout cannot corrupt the stream. Likewise fd 0 is
    replaced by /dev/null, so no child process can eat the client's messages.
    """
    rpc_in = os.fdopen(os.dup(0), "rb")
    rpc_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdout.flush()
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    server.start_io(rpc_in, rpc_out)
    return 0
