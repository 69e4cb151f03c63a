"""The scripted editor: buffers a user types in, and answers to everything the server asks.

`Editor` is the behaviour of an editor as KeSi meets it, apart from any transport: it keeps
buffers (text in memory, a version, a dirty flag, an undo list), applies
`workspace/applyEdit` to them the way its preset's editor does (versioned edits; VS Code
rejects a stale one, Neovim skips it and still answers `applied: true`, Emacs answers with an
error; a file that was not open is opened and left dirty), shows `needsConfirmation` edits as
a preview only when it announced change annotations, answers permission prompts,
`kesi/reviewEdit` and previews from scripted answers, saves on `kesi/saveDocuments`, and
records every message in arrival order (`timeline`).

Anything the server sends that the editor did not announce support for is recorded in
`violations`; errors the LSP client meets end up in `problems`.

A client class composes it: `EditorClient` (pygls only, for `kesi-lsp demo` and the
benchmarks) or the test suite's pytest-lsp client, which adds pytest-lsp's specification
checks. The client passes its base handlers (settings, progress, messages); the editor records
each message before the handler runs.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError
from pygls.uris import to_fs_path

from kesi_lsp.testing import edits
from kesi_lsp.testing.buffers import Buffer, Buffers, DocumentSync
from kesi_lsp.testing.handlers import plain_handler
from kesi_lsp.testing.presets import Preset
from kesi_lsp.testing.problems import ReportedProblems
from kesi_lsp.testing.quirks import FLAGGED, announces_kesi, losing_create
from kesi_lsp.testing.timeline import Timeline

ALLOW_ONCE = "Allow once"
ALLOW_SESSION = "Allow for this session"
DENY = "Deny"
BUTTONS: Final[Mapping[str, tuple[str, str, str]]] = {
    "en": (DENY, ALLOW_ONCE, ALLOW_SESSION),
    "zh-TW": ("不要", "這次", "這個 session 都好"),  # Day 14: N=不要 / y=這次 / a=這個 session 都好
}
"""A permission prompt's buttons in each locale, in the order the server offers them (design
§2.6: the safe one first); an editor answers with the title, which the server matches in the
session's locale."""

PromptAnswer = Callable[[types.ShowMessageRequestParams], Awaitable[str | None] | str | None]
ReviewAnswer = Callable[[dict[str, Any]], Awaitable[Any] | Any]
"""A decision ("accept", ...), or the whole answer (`{"decision", "after"}`: hunk by hunk)."""
PreviewAnswer = Callable[[types.WorkspaceEdit], Awaitable[bool | set[str]] | bool | set[str]]
"""True: apply it all; a set: only the changes with these annotation ids (ticked one by one)."""
Feature = Callable[[Any, Any], Any]
"""A client's base handler for a server message: `(client, params) -> answer`."""


class EditorLsp(DocumentSync, Protocol):
    """What the editor needs of the LSP client that carries it (pygls' `LanguageClient`)."""

    def feature(self, feature_name: str) -> Callable[[Callable[..., Any]], Any]: ...
    def workspace_execute_command_async(
        self, params: types.ExecuteCommandParams
    ) -> Awaitable[Any]: ...
    async def initialize_session(
        self, params: types.InitializeParams
    ) -> types.InitializeResult: ...


class EditorRefusalError(JsonRpcInternalError):
    """An error answer the imitated editor gives on purpose (Emacs on a stale edit)."""


async def _settle(value: Any) -> Any:
    """A scripted answer may be a value or a coroutine (a user who takes their time)."""
    return await value if asyncio.iscoroutine(value) else value


class Editor:
    """An editor imitating `preset`, talking through `lsp` (see the module docstring)."""

    def __init__(self, preset: Preset, lsp: EditorLsp, base: Mapping[str, Feature]) -> None:
        self.preset = preset
        self.lsp = lsp
        self.capabilities = preset.capabilities()  # what `initialize` announces
        self.encoding = "utf-16"  # until the server chooses another
        self.buffers = Buffers(preset, lsp, lambda: self.encoding)
        self.timeline = Timeline()
        self.prompts: list[types.ShowMessageRequestParams] = []
        self.reviews: list[dict[str, Any]] = []
        self.applied: list[types.ApplyWorkspaceEditParams] = []
        self.saves: list[list[str]] = []
        self.violations: list[str] = []
        self.problems: list[str] = []
        self.answer_prompt: PromptAnswer = lambda params: DENY
        self.answer_review: ReviewAnswer = lambda params: "reject"
        self.answer_preview: PreviewAnswer = lambda edit: False
        self.before_apply: Callable[[types.ApplyWorkspaceEditParams], None] = lambda params: None
        # Format on save: kesi/saveDocuments reshapes the buffer's text before writing it, as
        # VS Code's save participants do (formatters, trim trailing whitespace, final newline).
        self.reshape_on_save: Callable[[str], str] | None = None
        # Before saving a buffer on kesi/saveDocuments: False = the editor refuses (VS Code's
        # "the file on disk is newer"), the buffer stays unsaved and the URI is reported failed.
        self.before_save: Callable[[Path], bool] | None = None
        # The other language servers of the editor (`kesi/diagnostics`, when announced).
        self.reported = ReportedProblems()
        self._register(base)

    # -- wiring

    def _register(self, base: Mapping[str, Feature]) -> None:
        handlers: dict[str, Callable[[Any], Any]] = {
            method: self._recording(method, default) for method, default in base.items()
        }
        handlers["kesi/stream"] = self._kesi_notification("kesi/stream")
        handlers["kesi/runFinished"] = self._kesi_notification("kesi/runFinished")
        if self.preset.progress_create == "lose":
            handlers[types.WINDOW_WORK_DONE_PROGRESS_CREATE] = losing_create(self.timeline)
        handlers[types.WORKSPACE_APPLY_EDIT] = self._on_apply_edit
        handlers["kesi/reviewEdit"] = self._on_review_edit
        handlers["kesi/saveDocuments"] = self._on_save_documents
        handlers[types.WORKSPACE_CODE_LENS_REFRESH] = self._on_code_lens_refresh
        for method, flag in FLAGGED.items():
            handlers[method] = self._announced(method, flag)
        handlers["kesi/diagnostics"] = self._on_diagnostics
        if self.preset.prompts:
            handlers[types.WINDOW_SHOW_MESSAGE_REQUEST] = self._on_prompt
        for method, handler in handlers.items():
            self.lsp.feature(method)(plain_handler(handler))

    def _recording(self, method: str, default: Feature | None) -> Callable[[Any], Any]:
        def handler(params: Any) -> Any:
            self.timeline.record(method, params)
            return default(self.lsp, params) if default is not None else None

        return handler

    def _kesi_notification(self, method: str) -> Callable[[Any], Any]:
        record = self._recording(method, None)

        def handler(params: Any) -> Any:
            if not announces_kesi(self.capabilities):
                self.violations.append(f"{method} sent to a client without experimental.kesi")
            return record(params)

        return handler

    def server_error(self, error: Exception, source: Any) -> None:
        """An error the LSP client met; expected ones (an answer refused on purpose, Helix
        having no prompts) are not problems."""
        unanswerable = f"Method Not Found: {types.WINDOW_SHOW_MESSAGE_REQUEST}"
        if isinstance(error, EditorRefusalError):
            return
        if self.preset.prompts or str(error) != unanswerable:
            self.problems.append(f"{getattr(source, '__name__', source)}: {error}")

    def _kesi_flag(self, name: str) -> bool:
        experimental = self.capabilities.experimental
        kesi = experimental.get("kesi", {}) if isinstance(experimental, dict) else {}
        return bool(kesi.get(name))

    # -- the session

    async def initialize(
        self,
        folders: Sequence[Path],
        *,
        options: Any = None,
        name: str = "kesi-scripted-editor",
        seconds: float = 30,
    ) -> types.InitializeResult:
        """`initialize` with `folders` open (the first is the root) and `options` as the
        initialization options, then `initialized`; positions use the encoding the server
        chose from then on."""
        params = types.InitializeParams(
            capabilities=self.capabilities,
            process_id=os.getpid(),
            workspace_folders=[
                types.WorkspaceFolder(uri=f.resolve().as_uri(), name=f.name) for f in folders
            ]
            or None,
            root_uri=folders[0].resolve().as_uri() if folders else None,
            initialization_options=options,
            client_info=types.ClientInfo(name=name),
        )
        result = await asyncio.wait_for(self.lsp.initialize_session(params), seconds)
        self.encoding = str(result.capabilities.position_encoding or "utf-16")
        return result

    # -- commands and runs

    async def command(
        self, name: str, argument: Mapping[str, Any] | None = None, seconds: float = 20
    ) -> Any:
        """`workspace/executeCommand` with one argument object (none when `argument` is None)."""
        params = types.ExecuteCommandParams(
            command=name, arguments=[dict(argument)] if argument is not None else []
        )
        return await asyncio.wait_for(self.lsp.workspace_execute_command_async(params), seconds)

    async def sync(self) -> None:
        """Return once the server has handled everything sent before (a request round trip:
        the server reads messages in order)."""
        await self.command("kesi.cost", {})

    async def run(
        self, name: str, argument: Mapping[str, Any], seconds: float = 60
    ) -> dict[str, Any]:
        """Start a run with `name` and wait for it to finish; return `kesi/runFinished`."""
        started = await self.command(name, argument)
        return await self.wait_finished(started["runId"], seconds)

    async def wait_finished(self, run_id: str, seconds: float = 60) -> dict[str, Any]:
        return await self.timeline.wait_finished(run_id, seconds)

    def finished(self, run_id: str) -> dict[str, Any]:
        return self.timeline.finished(run_id)

    def stream(self, run_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        return self.timeline.stream(run_id, kind)

    def log_lines(self) -> list[str]:
        return self.timeline.log_lines()

    def shown(self, kind: types.MessageType | None = None) -> list[str]:
        return self.timeline.shown(kind)

    # -- buffers (the user's side: see `Buffers`)

    def uri(self, path: Path) -> str:
        return self.buffers.uri(path)

    def open(self, path: Path, language: str | None = None, *, hidden: bool = False) -> Buffer:
        return self.buffers.open(path, language, hidden=hidden)

    def buffer(self, path: Path) -> Buffer:
        return self.buffers[self.uri(path)]

    def type_text(self, path: Path, old: str, new: str) -> None:
        self.buffers.type_text(path, old, new)

    def save(self, path: Path) -> None:
        self.buffers.save(path)

    def reload(self, path: Path) -> None:
        self.buffers.reload(path)

    # -- server requests

    async def _on_prompt(
        self, params: types.ShowMessageRequestParams
    ) -> types.MessageActionItem | None:
        self.timeline.record(types.WINDOW_SHOW_MESSAGE_REQUEST, params)
        self.prompts.append(params)
        answer = await _settle(self.answer_prompt(params))
        if answer is None or self.preset.null_prompt_answers:
            return None
        return types.MessageActionItem(title=answer)

    async def _on_review_edit(self, params: dict[str, Any]) -> dict[str, str]:
        if not self._kesi_flag("reviewEdit"):
            self.violations.append("kesi/reviewEdit sent to a client that did not announce it")
        self.timeline.record("kesi/reviewEdit", params)
        self.reviews.append(params)
        answer = await _settle(self.answer_review(params))
        return answer if isinstance(answer, dict) else {"decision": answer}

    def _on_code_lens_refresh(self, params: Any) -> None:
        workspace = self.capabilities.workspace
        lens = workspace.code_lens if workspace else None
        if not (lens and lens.refresh_support):
            self.violations.append("workspace/codeLens/refresh sent to a client without it")
        self.timeline.record(types.WORKSPACE_CODE_LENS_REFRESH, params)

    def _announced(self, method: str, flag: str) -> Callable[[dict[str, Any]], None]:
        """Records `method`, a notification only a client announcing `flag` may get."""

        def handler(params: dict[str, Any]) -> None:
            if not self._kesi_flag(flag):
                self.violations.append(f"{method} sent to a client that did not announce {flag}")
            self.timeline.record(method, params)

        return handler

    def pending_hunks(self, path: Path) -> list[dict[str, Any]] | None:
        """The pending hunks of `path` as the last `kesi/hunks` for it said (None: none came)."""
        uri = self.uri(path)
        said = [p["hunks"] for m, p in self.timeline if m == "kesi/hunks" and p["uri"] == uri]
        return said[-1] if said else None

    def verdicts(self) -> list[dict[str, Any]]:
        """Every `kesi/verdict` (a run's verdict changed after an undo or a redo), in order."""
        return [p for m, p in self.timeline if m == "kesi/verdict"]

    def task_changes(self) -> list[dict[str, Any]]:
        """Every `kesi/tasks` (a background task started or ended), in order."""
        return [p for m, p in self.timeline if m == "kesi/tasks"]

    def plans(self, run_id: str) -> list[list[dict[str, str]]]:
        """Every `kesi/plan` of `run_id`, in order: the items of each update."""
        return [p["items"] for m, p in self.timeline if m == "kesi/plan" and p["runId"] == run_id]

    async def _on_diagnostics(self, params: dict[str, Any]) -> Any:
        if not self._kesi_flag("diagnostics"):
            self.violations.append("kesi/diagnostics sent to a client that did not announce it")
        self.timeline.record("kesi/diagnostics", params)
        return await _settle(self.reported.answer(params))

    def _on_save_documents(self, params: dict[str, Any]) -> dict[str, Any]:
        if not self._kesi_flag("saveDocuments"):
            self.violations.append("kesi/saveDocuments sent to a client that did not announce it")
        self.timeline.record("kesi/saveDocuments", params)
        self.saves.append(list(params["uris"]))
        saved, failed = [], []
        for uri in params["uris"]:
            if uri in self.buffers:
                buffer = self.buffers[uri]
                if self.before_save is not None and not self.before_save(Path(buffer.path)):
                    failed.append(uri)
                    continue
                if self.reshape_on_save is not None:
                    self.buffers.reshape(buffer, self.reshape_on_save(buffer.text))
                self.buffers.save(buffer.path)
                saved.append(uri)
        return {"saved": saved, "failed": failed}

    async def _on_apply_edit(
        self, params: types.ApplyWorkspaceEditParams
    ) -> types.ApplyWorkspaceEditResult:
        self.timeline.record(types.WORKSPACE_APPLY_EDIT, params)
        self.applied.append(params)
        edit = params.edit
        caps = edits.edit_capabilities(self.capabilities)
        self.violations.extend(edits.shape_violations(caps, edit))
        self.before_apply(params)  # e.g. the user types at this very moment
        if edits.needs_preview(caps, edit):
            accepted = await _settle(self.answer_preview(edit))
            if not accepted:
                return types.ApplyWorkspaceEditResult(applied=False)
            if isinstance(accepted, set):  # only the changes the user ticked
                edit = edits.ticked(edit, accepted)
        try:
            return self._apply(edit, params.label or "")
        except OSError as exc:  # the disk refused (a file to create, a folder for it)
            return types.ApplyWorkspaceEditResult(applied=False, failure_reason=str(exc))

    def _apply(self, edit: types.WorkspaceEdit, label: str) -> types.ApplyWorkspaceEditResult:
        for uri, text_edits in (edit.changes or {}).items():
            self.buffers.change(self.buffers.for_uri(uri), text_edits, dirty=True, label=label)
        for change in edit.document_changes or []:
            if isinstance(change, types.CreateFile):
                if not self._create(change):
                    return types.ApplyWorkspaceEditResult(
                        applied=False, failure_reason="file exists"
                    )
            elif isinstance(change, types.DeleteFile):
                self._delete(change)
            elif isinstance(change, types.TextDocumentEdit):
                uri, version = change.text_document.uri, change.text_document.version
                buffer = self.buffers.for_uri(uri)
                if version is not None and version != buffer.version:
                    if self.preset.stale_edits == "skip":  # Neovim: "Buffer … newer than edits"
                        continue
                    if self.preset.stale_edits == "error":
                        have = buffer.version
                        raise EditorRefusalError(
                            message=f"Edits on {uri} require version {version}, you have {have}"
                        )
                    return types.ApplyWorkspaceEditResult(
                        applied=False, failure_reason="version mismatch"
                    )
                self.buffers.change(buffer, change.edits, dirty=True, label=label)
        return types.ApplyWorkspaceEditResult(applied=True)

    def _delete(self, change: types.DeleteFile) -> None:
        """Delete the file of `change`, closing its buffer (VS Code closes a deleted file's
        editor)."""
        path = Path(to_fs_path(change.uri) or "")
        self.buffers.close(path)
        _gone(path)

    def _create(self, change: types.CreateFile) -> bool:
        """Create the file of `change` and open it; False when it exists and may not be
        overwritten."""
        path = Path(to_fs_path(change.uri) or "")
        options = change.options
        if path.exists() and not (options and (options.overwrite or options.ignore_if_exists)):
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
        self.buffers.for_uri(change.uri)
        return True


def _gone(path: Path) -> None:
    path.unlink(missing_ok=True)
