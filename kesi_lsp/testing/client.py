"""`EditorClient`: the scripted editor on pygls' `LanguageClient`, with nothing else needed.

`kesi-lsp demo` and the benchmarks run from a plain install, so this client builds on pygls
alone (the test suite layers pytest-lsp's checks on the same `Editor`). It answers what every
editor answers (settings by section, work-done progress, `window/showDocument`), keeps the
progress reports, and reads the server's JSON the way an editor does (`client_converter`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO, Union

import cattrs
from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.exceptions import FeatureNotificationError, JsonRpcInternalError
from pygls.feature_manager import is_thread_function
from pygls.lsp.client import LanguageClient
from pygls.protocol import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
    LanguageServerProtocol,
)

from kesi_lsp import __version__
from kesi_lsp.testing.editor import Editor, Feature
from kesi_lsp.testing.presets import Preset, lsp_types

PROGRESS_KINDS: Mapping[str, type[Any]] = {
    "begin": types.WorkDoneProgressBegin,
    "report": types.WorkDoneProgressReport,
    "end": types.WorkDoneProgressEnd,
}


class _AnsweredCancels(logging.Filter):
    """Drops pygls' warning about a `$/cancelRequest` for a request this client already
    answered: the server withdraws a request it stopped waiting for (the run ended) while the
    answer was on its way, which the specification allows and an editor ignores."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Cancel notification for unknown message id")


@functools.cache
def _quiet_answered_cancels() -> None:
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_AnsweredCancels())


@functools.cache
def client_converter() -> cattrs.Converter:
    """lsprotocol's converter, read the way an editor reads the server's messages.

    One per process (`kesi_lsp.lsp.wire.plain_json_converter` says why): the demo, the tests
    and the benchmarks start many editors.

    Two fixes: the params and results of methods lsprotocol does not know (`kesi/stream`,
    `kesi/reviewEdit`) stay plain JSON objects (pygls would make namedtuples of them, renaming
    keys that are not identifiers); and a code action that carries a command is a
    `CodeAction` (lsprotocol 2025.0.0 reads any result with a `command` field as a `Command`;
    in a `Command` the field is a string, in a `CodeAction` an object: what editors look at).
    """
    converter = get_converter()

    def keep(obj: dict[str, Any], cls: type[Any]) -> Any:
        return cls(**obj)

    for message in (JsonRPCRequestMessage, JsonRPCResponseMessage, JsonRPCNotification):
        converter.register_structure_hook(message, keep)

    def code_action_or_command(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return converter.structure(obj, types.Command)
        return converter.structure(obj, types.CodeAction)

    # lsprotocol registers its hook for typing.Union, not for the `|` spelling.
    union = Union[types.Command, types.CodeAction]  # noqa: UP007
    converter.register_structure_hook(union, code_action_or_command)
    return converter


class EditorProtocol(LanguageServerProtocol):
    """pygls' protocol, with a quick way in for the server's notifications.

    pygls tells requests, notifications and answers apart with `isinstance` checks against
    `typing` protocols: ~35 us a message on Python 3.11, most of what this client spends on one
    `kesi/stream` notification (59 us in all, against 3 us of JSON). A run streams thousands of
    them, and an answer the editor waits for is read only after those before it in the pipe:
    the benchmarks' round trips (benchmark 2) measured this client instead of the server. A
    notification (a method, no id) goes straight to its handler; everything else as pygls
    handles it.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plain: dict[Any, bool] = {}

    def handle_message(self, message: Any) -> Any:
        method = getattr(message, "method", None)
        is_notification = isinstance(method, str) and not hasattr(message, "id")
        if not is_notification or self._shutdown or message.jsonrpc != self.VERSION:
            return super().handle_message(message)
        handler = self.fm.builtin_features.get(method) or self.fm.features.get(method)
        if handler is None or method == types.CANCEL_REQUEST or not self._is_plain(handler):
            self._handle_notification(str(method), message.params)
            return None
        try:  # what pygls does for a plain function, without its Future and id per message
            handler(message.params)
        except Exception:
            error = JsonRpcInternalError.of(sys.exc_info())  # type: ignore[no-untyped-call]
            self._server._report_server_error(error, FeatureNotificationError)
        return None

    def _is_plain(self, handler: Any) -> bool:
        """A handler pygls would simply call (no coroutine, generator or thread)."""
        if handler not in self._plain:
            special = asyncio.iscoroutinefunction(handler) or inspect.isgeneratorfunction(handler)
            threaded = is_thread_function(handler)  # type: ignore[no-untyped-call]
            self._plain[handler] = not (special or threaded)
        return self._plain[handler]


def _configuration(client: EditorClient, params: types.ConfigurationParams) -> list[Any]:
    return [client.setting(item.section) for item in params.items]


def _progress_created(client: EditorClient, params: types.WorkDoneProgressCreateParams) -> None:
    client.progress_reports.setdefault(params.token, [])


def _progress(client: EditorClient, params: types.ProgressParams) -> None:
    value = params.value
    if not isinstance(value, dict) or value.get("kind") not in PROGRESS_KINDS:
        return
    typed = lsp_types().structure(value, PROGRESS_KINDS[value["kind"]])
    client.progress_reports.setdefault(params.token, []).append(typed)


def _show_document(client: EditorClient, params: types.ShowDocumentParams) -> Any:
    return types.ShowDocumentResult(success=True)


def _nothing(client: EditorClient, params: Any) -> None:
    return None


BASE_FEATURES: Mapping[str, Feature] = {
    types.WORKSPACE_CONFIGURATION: _configuration,
    types.WINDOW_WORK_DONE_PROGRESS_CREATE: _progress_created,
    types.PROGRESS: _progress,
    types.WINDOW_SHOW_DOCUMENT: _show_document,
    types.WINDOW_LOG_MESSAGE: _nothing,
    types.WINDOW_SHOW_MESSAGE: _nothing,
    types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _nothing,
    types.CLIENT_REGISTER_CAPABILITY: _nothing,
}


class EditorClient(LanguageClient):
    """A pygls client carrying an `Editor` (its `editor`) that imitates `preset`.

    `settings` is the editor's configuration by section (`{"kesi": {...}}`), the answer to
    `workspace/configuration` for every scope.
    """

    def __init__(self, preset: Preset, settings: Mapping[str, Any] | None = None) -> None:
        super().__init__(
            "kesi-scripted-editor",
            __version__,
            protocol_cls=EditorProtocol,
            converter_factory=client_converter,
        )
        self.settings = dict(settings or {})
        self.progress_reports: dict[types.ProgressToken, list[Any]] = {}
        self.capabilities: types.ClientCapabilities | None = None
        self.editor = Editor(preset, self, BASE_FEATURES)
        _quiet_answered_cancels()
        self._stderr_sink: asyncio.Task[None] | None = None

    def setting(self, section: str | None) -> Any:
        """The value of a dotted `section` (`kesi`, `kesi.model`), or the whole settings."""
        value: Any = self.settings
        for part in (section or "").split(".") if section else []:
            value = value.get(part) if isinstance(value, Mapping) else None
        return value

    def report_server_error(self, error: Exception, source: Any) -> None:
        self.editor.server_error(error, source)

    async def start_io(
        self, cmd: str, *args: str, stderr_to: Path | BinaryIO | None = None, **kwargs: Any
    ) -> None:
        """Start the server program over stdio; its stderr (its log) is copied to
        `stderr_to` (a path or an open binary file) or discarded, so the pipe never fills."""
        await super().start_io(cmd, *args, **kwargs)
        self._stderr_sink = asyncio.ensure_future(self._drain(stderr_to))

    async def _drain(self, target: Path | BinaryIO | None) -> None:
        server = self._server
        if server is None or server.stderr is None:
            return
        with contextlib.ExitStack() as stack:
            sink = stack.enter_context(target.open("wb")) if isinstance(target, Path) else target
            while chunk := await server.stderr.read(65536):
                if sink is not None:
                    sink.write(chunk)
                    sink.flush()

    async def initialize_session(self, params: types.InitializeParams) -> types.InitializeResult:
        """`initialize`, then `initialized` (pytest-lsp's client has the same method)."""
        self.capabilities = params.capabilities
        result = await self.initialize_async(params)
        self.initialized(types.InitializedParams())
        return result

    async def shutdown_session(self) -> None:
        """`shutdown`, then `exit`; a server program is then waited for."""
        await self.shutdown_async(None)
        self.exit(None)
        if self._server is not None:
            await self._server.wait()

    async def stop(self) -> None:
        await super().stop()  # type: ignore[no-untyped-call]
        if self._stderr_sink is not None:
            await self._stderr_sink
