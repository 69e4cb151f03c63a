"""pytest-lsp clients that behave like the editors KeSi meets, for end-to-end tests.

Each client announces the capabilities of a real editor (pytest-lsp's captured VS Code,
Neovim and Emacs presets, plus a Helix-like client without `window/showMessageRequest`) and
*behaves* like it where KeSi's contract depends on it: it keeps buffers, applies
`workspace/applyEdit` to them (versioned edits; VS Code rejects a stale one, Neovim skips it
and still answers `applied: true`; a file that was not open is opened and left dirty),
shows `needsConfirmation` edits as a preview only when it announced change annotations,
answers permission prompts and `kesi/reviewEdit` from a script, saves on `kesi/saveDocuments`,
and records every notification in arrival order (`timeline`).

Anything the server sends that the client did not announce support for is recorded in
`violations`; pytest-lsp's own specification checks end up in `problems`. `kesi_client`
fails the test if either is non-empty.

Reusable outside tests/lsp (demo, benchmarks): `kesi_client(...)` starts `kesi-lsp` as a
subprocess and yields an initialized `KesiClient`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Union

import attrs
from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.exceptions import JsonRpcInternalError
from pygls.uris import to_fs_path
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES

from kesi_lsp.demo.editor import plain_handler
from kesi_lsp.lsp.wire import plain_json_converter
from tests.lsp.neovim_model import VimBuffer, code_units, column, neovim_apply

_converter = get_converter()

StaleEdits = Literal["reject", "skip", "error"]
EditModel = Literal["spec", "neovim"]
PromptAnswer = Callable[[types.ShowMessageRequestParams], Awaitable[str | None] | str | None]
ReviewAnswer = Callable[[dict[str, Any]], Awaitable[Any] | Any]  # a decision, or the whole answer
PreviewAnswer = Callable[
    [types.WorkspaceEdit], Awaitable[bool | set[str]] | bool | set[str]
]  # True: apply all; a set: only the changes with these annotation ids (ticked in the preview)

ALLOW_ONCE = "Allow once"
ALLOW_SESSION = "Allow for this session"
DENY = "Deny"
KESI_FULL = {"stream": True, "reviewEdit": True, "saveDocuments": True}


def _helix_capabilities() -> types.ClientCapabilities:
    """Roughly what Helix 25 announces: documentChanges and resource operations, utf-8
    first, work-done progress, and no way to answer `window/showMessageRequest`."""
    raw = {
        "general": {"positionEncodings": ["utf-8", "utf-32", "utf-16"]},
        "workspace": {
            "applyEdit": True,
            "configuration": True,
            "workspaceFolders": True,
            "didChangeConfiguration": {"dynamicRegistration": False},
            "executeCommand": {"dynamicRegistration": False},
            "workspaceEdit": {
                "documentChanges": True,
                "resourceOperations": ["create", "rename", "delete"],
                "failureHandling": "abort",
                "normalizesLineEndings": False,
            },
        },
        "textDocument": {
            "synchronization": {"didSave": True},
            "codeAction": {
                "codeActionLiteralSupport": {
                    "codeActionKind": {
                        "valueSet": ["", "quickfix", "refactor", "refactor.rewrite", "source"]
                    }
                },
                "isPreferredSupport": True,
                "dataSupport": True,
                "resolveSupport": {"properties": ["edit", "command"]},
            },
            "publishDiagnostics": {"versionSupport": True},
        },
        "window": {"workDoneProgress": True, "showDocument": {"support": True}},
    }
    return _converter.structure(raw, types.ClientCapabilities)


def _with_kesi(
    caps: types.ClientCapabilities, flags: Mapping[str, bool]
) -> types.ClientCapabilities:
    return attrs.evolve(caps, experimental={"kesi": dict(flags)})


def _annotations_without_create() -> types.ClientCapabilities:
    """VS Code's capabilities minus resource operations: change annotations (so the review
    is the annotated preview) but no way to create a file through workspace/applyEdit."""
    caps = client_capabilities("visual-studio-code")
    assert caps.workspace is not None and caps.workspace.workspace_edit is not None
    edit = attrs.evolve(caps.workspace.workspace_edit, resource_operations=[])
    return attrs.evolve(caps, workspace=attrs.evolve(caps.workspace, workspace_edit=edit))


@dataclass(frozen=True)
class Preset:
    """An editor to imitate: what it announces and how it treats edits and prompts."""

    name: str
    capabilities: Callable[[], types.ClientCapabilities]
    prompts: bool = True  # implements window/showMessageRequest
    stale_edits: StaleEdits = "reject"
    edit_model: EditModel = "spec"  # how it holds text and applies edits (neovim_model.py)

    def apply_edits(self, text: str, edits: Sequence[Any], encoding: str) -> str:
        """`text` after `edits`, as this editor applies them."""
        if self.edit_model == "neovim":
            return neovim_apply(text, edits, encoding)
        return apply_text_edits(text, edits, encoding)


PRESETS: dict[str, Preset] = {
    "vscode": Preset("vscode", lambda: client_capabilities("visual-studio-code")),
    "neovim": Preset(
        "neovim", lambda: client_capabilities("neovim"), stale_edits="skip", edit_model="neovim"
    ),
    "emacs": Preset("emacs", lambda: client_capabilities("emacs"), stale_edits="error"),
    "helix": Preset("helix", _helix_capabilities, prompts=False, stale_edits="reject"),
    # Our own thin clients: the editor plus the `experimental.kesi` extensions.
    "vscode+kesi": Preset(
        "vscode+kesi",
        lambda: _with_kesi(
            client_capabilities("visual-studio-code"), {"stream": True, "saveDocuments": True}
        ),
    ),
    "neovim+kesi": Preset(
        "neovim+kesi",
        lambda: _with_kesi(client_capabilities("neovim"), KESI_FULL),
        stale_edits="skip",
        edit_model="neovim",
    ),
    # A made-up editor: the annotated preview, but no CreateFile (see _apply's fallback).
    "annotations-no-create": Preset("annotations-no-create", _annotations_without_create),
}
EDITOR_PRESETS = ("vscode", "neovim", "emacs", "helix")


# -- positions -------------------------------------------------------------------------------

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def offset_at(text: str, position: types.Position, encoding: str) -> int:
    """The string index of an LSP position (clamped like editors clamp)."""
    lines = _LINE.findall(text)
    if position.line >= len(lines):
        return len(text)
    start = sum(len(line) for line in lines[: position.line])
    line = lines[position.line].rstrip("\r\n")
    return start + column(line, position.character, encoding)


def position_at(text: str, offset: int, encoding: str) -> types.Position:
    before = text[:offset]
    lines = _LINE.findall(before)
    if not lines or lines[-1].endswith(("\n", "\r")):
        return types.Position(line=len(lines), character=0)
    return types.Position(line=len(lines) - 1, character=code_units(lines[-1], encoding))


def apply_text_edits(text: str, edits: Sequence[Any], encoding: str) -> str:
    spans = sorted(
        (
            (offset_at(text, e.range.start, encoding), offset_at(text, e.range.end, encoding), e)
            for e in edits
        ),
        key=lambda item: item[0],
        reverse=True,
    )
    for start, end, edit in spans:
        text = text[:start] + edit.new_text + text[end:]
    return text


def client_converter() -> Any:
    """The server's JSON handling, plus a fix for lsprotocol 2025.0.0 reading every code
    action that carries a `command` as a bare Command (editors look at the types)."""
    converter = plain_json_converter()

    def code_action_or_command(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return converter.structure(obj, types.Command)
        return converter.structure(obj, types.CodeAction)

    # lsprotocol registers its hook for typing.Union, not for the `|` spelling.
    union = Union[types.Command, types.CodeAction]  # noqa: UP007
    converter.register_structure_hook(union, code_action_or_command)
    return converter


class EditorRefusalError(JsonRpcInternalError):
    """An error answer the imitated editor gives on purpose (Emacs on a stale edit)."""


# -- the client ------------------------------------------------------------------------------


@dataclass
class Buffer:
    path: Path
    uri: str
    text: str
    version: int
    dirty: bool = False
    undo: list[tuple[str, str]] = field(default_factory=list)  # (label, text before)


class KesiClient(LanguageClient):
    """A pytest-lsp client that imitates `preset` (see the module docstring)."""

    def __init__(self, preset: Preset, configuration: dict[str, Any] | None = None) -> None:
        super().__init__(configuration=configuration, converter_factory=client_converter)
        self.preset = preset
        self.encoding = "utf-16"
        self.buffers: dict[str, Buffer] = {}
        self.timeline: list[tuple[str, Any]] = []
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
        self._finished: dict[str, asyncio.Event] = {}
        self._register()

    # -- capability helpers

    @property
    def caps(self) -> types.ClientCapabilities:
        assert self.capabilities is not None
        return self.capabilities

    def _kesi_flag(self, name: str) -> bool:
        experimental = self.caps.experimental
        kesi = experimental.get("kesi", {}) if isinstance(experimental, dict) else {}
        return bool(kesi.get(name))

    def _edit_caps(self) -> types.WorkspaceEditClientCapabilities:
        workspace = self.caps.workspace
        edit = workspace.workspace_edit if workspace else None
        return edit or types.WorkspaceEditClientCapabilities()

    # -- wiring

    def _register(self) -> None:
        features: dict[str, Any] = {}
        for method, default in DEFAULT_CLIENT_FEATURES.items():
            features[method] = self._recording(method, default)
        features["kesi/stream"] = self._recording("kesi/stream", None)
        features["kesi/runFinished"] = self._on_run_finished
        features[types.WORKSPACE_APPLY_EDIT] = self._on_apply_edit
        features["kesi/reviewEdit"] = self._on_review_edit
        features["kesi/saveDocuments"] = self._on_save_documents
        features[types.WORKSPACE_CODE_LENS_REFRESH] = self._on_code_lens_refresh
        if self.preset.prompts:
            features[types.WINDOW_SHOW_MESSAGE_REQUEST] = self._on_prompt
        for method, handler in features.items():
            self.feature(method)(plain_handler(handler))

    def _recording(self, method: str, default: Any) -> Callable[[Any], Any]:
        def handler(params: Any) -> Any:
            self.timeline.append((method, params))
            return default(self, params) if default is not None else None

        return handler

    def report_server_error(self, error: Exception, source: Any) -> None:
        unanswerable = f"Method Not Found: {types.WINDOW_SHOW_MESSAGE_REQUEST}"
        if isinstance(error, EditorRefusalError):  # an error this client answered on purpose
            pass
        elif self.preset.prompts or str(error) != unanswerable:  # Helix-like: expected
            self.problems.append(f"{getattr(source, '__name__', source)}: {error}")
        super().report_server_error(error, source)

    # -- notifications about runs

    def _on_run_finished(self, params: Any) -> None:
        self.timeline.append(("kesi/runFinished", params))
        self._finished.setdefault(params["runId"], asyncio.Event()).set()

    async def wait_finished(self, run_id: str, seconds: float = 60) -> dict[str, Any]:
        """Wait for `kesi/runFinished` of `run_id` and return its params."""
        event = self._finished.setdefault(run_id, asyncio.Event())
        await asyncio.wait_for(event.wait(), seconds)
        return self.finished(run_id)

    def finished(self, run_id: str) -> dict[str, Any]:
        found = [p for m, p in self.timeline if m == "kesi/runFinished" and p["runId"] == run_id]
        assert len(found) == 1, f"expected one kesi/runFinished for {run_id}, got {len(found)}"
        return found[0]

    def stream(self, run_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            p
            for m, p in self.timeline
            if m == "kesi/stream" and p["runId"] == run_id and (kind is None or p["kind"] == kind)
        ]

    def log_lines(self) -> list[str]:
        return [p.message for m, p in self.timeline if m == types.WINDOW_LOG_MESSAGE]

    def shown(self, kind: types.MessageType | None = None) -> list[str]:
        return [
            p.message
            for m, p in self.timeline
            if m == types.WINDOW_SHOW_MESSAGE and (kind is None or p.type == kind)
        ]

    # -- commands

    async def command(self, name: str, argument: Mapping[str, Any] | None = None) -> Any:
        params = types.ExecuteCommandParams(
            command=name, arguments=[dict(argument)] if argument is not None else []
        )
        return await asyncio.wait_for(self.workspace_execute_command_async(params), 20)

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

    # -- buffers (the user's side)

    def uri(self, path: Path) -> str:
        return path.resolve().as_uri()

    def open(self, path: Path, language: str = "python") -> Buffer:
        text = path.read_bytes().decode("utf-8") if path.exists() else ""
        if self.preset.edit_model == "neovim":  # an empty file is one empty line: "\n"
            text = VimBuffer.read(text).text()
        buffer = Buffer(path.resolve(), self.uri(path), text, version=1)
        self.buffers[buffer.uri] = buffer
        self.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=buffer.uri, language_id=language, version=buffer.version, text=text
                )
            )
        )
        return buffer

    def buffer(self, path: Path) -> Buffer:
        return self.buffers[self.uri(path)]

    def type_text(self, path: Path, old: str, new: str) -> None:
        """The user replaces the first `old` with `new` in the open buffer (unsaved)."""
        buffer = self.buffer(path)
        start = buffer.text.index(old)
        rng = types.Range(
            start=position_at(buffer.text, start, self.encoding),
            end=position_at(buffer.text, start + len(old), self.encoding),
        )
        self._change(buffer, [types.TextEdit(range=rng, new_text=new)], dirty=True)

    def save(self, path: Path) -> None:
        self._save(self.buffer(path))

    def reload(self, path: Path) -> None:
        """The user reloads the buffer from disk (`:edit!`, VS Code's auto-reload)."""
        buffer = self.buffer(path)
        text = path.read_bytes().decode("utf-8")
        if self.preset.edit_model == "neovim":
            text = VimBuffer.read(text).text()
        self._reshape(buffer, text)
        buffer.dirty = False

    def _change(
        self, buffer: Buffer, edits: Sequence[Any], *, dirty: bool, label: str = ""
    ) -> None:
        before = buffer.text
        buffer.text = self.preset.apply_edits(before, edits, self.encoding)
        buffer.version += 1
        buffer.dirty = buffer.dirty or dirty
        if label:
            buffer.undo.append((label, before))
        changes: list[types.TextDocumentContentChangeEvent] = [
            types.TextDocumentContentChangePartial(range=e.range, text=e.new_text)
            for e in sorted(
                edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
            )
        ]
        if self.preset.edit_model == "neovim":  # it reports what its buffer now holds
            changes = [types.TextDocumentContentChangeWholeDocument(text=buffer.text)]
        self.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=buffer.uri, version=buffer.version
                ),
                content_changes=changes,
            )
        )

    def _reshape(self, buffer: Buffer, text: str) -> None:
        """Replace the whole buffer with `text` (a save participant's edit), if it differs."""
        if text == buffer.text:
            return
        end = position_at(buffer.text, len(buffer.text), self.encoding)
        whole = types.Range(start=types.Position(line=0, character=0), end=end)
        self._change(buffer, [types.TextEdit(range=whole, new_text=text)], dirty=True)

    def _save(self, buffer: Buffer) -> None:
        data = buffer.text
        if self.preset.edit_model == "neovim":  # :write ('fixeol')
            data = VimBuffer.of(data).disk()
        buffer.path.write_bytes(data.encode("utf-8"))
        buffer.dirty = False
        self.text_document_did_save(
            types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=buffer.uri)
            )
        )

    # -- server requests

    async def _on_prompt(
        self, params: types.ShowMessageRequestParams
    ) -> types.MessageActionItem | None:
        self.timeline.append((types.WINDOW_SHOW_MESSAGE_REQUEST, params))
        self.prompts.append(params)
        answer = self.answer_prompt(params)
        if asyncio.iscoroutine(answer):
            answer = await answer
        return types.MessageActionItem(title=answer) if answer is not None else None

    async def _on_review_edit(self, params: dict[str, Any]) -> dict[str, str]:
        if not self._kesi_flag("reviewEdit"):
            self.violations.append("kesi/reviewEdit sent to a client that did not announce it")
        self.timeline.append(("kesi/reviewEdit", params))
        self.reviews.append(params)
        decision = self.answer_review(params)
        if asyncio.iscoroutine(decision):
            decision = await decision
        if isinstance(decision, dict):  # a per-hunk answer: {"decision", "after"}
            return decision
        return {"decision": decision}

    def _on_code_lens_refresh(self, params: Any) -> None:
        workspace = self.caps.workspace
        lens = workspace.code_lens if workspace else None
        if not (lens and lens.refresh_support):
            self.violations.append("workspace/codeLens/refresh sent to a client without it")
        self.timeline.append((types.WORKSPACE_CODE_LENS_REFRESH, params))

    def _on_save_documents(self, params: dict[str, Any]) -> dict[str, Any]:
        if not self._kesi_flag("saveDocuments"):
            self.violations.append("kesi/saveDocuments sent to a client that did not announce it")
        self.timeline.append(("kesi/saveDocuments", params))
        self.saves.append(list(params["uris"]))
        saved, failed = [], []
        for uri in params["uris"]:
            if uri in self.buffers:
                buffer = self.buffers[uri]
                if self.before_save is not None and not self.before_save(Path(buffer.path)):
                    failed.append(uri)
                    continue
                if self.reshape_on_save is not None:
                    self._reshape(buffer, self.reshape_on_save(buffer.text))
                self._save(buffer)
                saved.append(uri)
        return {"saved": saved, "failed": failed}

    async def _on_apply_edit(
        self, params: types.ApplyWorkspaceEditParams
    ) -> types.ApplyWorkspaceEditResult:
        self.timeline.append((types.WORKSPACE_APPLY_EDIT, params))
        self.applied.append(params)
        edit = params.edit
        self._check_shape(edit)
        self.before_apply(params)  # e.g. the user types at this very moment
        if self._needs_preview(edit):
            accepted = self.answer_preview(edit)
            if asyncio.iscoroutine(accepted):
                accepted = await accepted
            if not accepted:
                return types.ApplyWorkspaceEditResult(applied=False)
            if isinstance(accepted, set):  # the user ticked only these annotated changes
                edit = _ticked(edit, accepted)
        return self._apply(edit, params.label or "")

    def _needs_preview(self, edit: types.WorkspaceEdit) -> bool:
        if self._edit_caps().change_annotation_support is None:
            return False  # Neovim 0.11: applies annotated edits without asking
        return any(a.needs_confirmation for a in (edit.change_annotations or {}).values())

    def _check_shape(self, edit: types.WorkspaceEdit) -> None:
        caps = self._edit_caps()
        resource_ops = caps.resource_operations or []
        if edit.document_changes is not None and not (caps.document_changes or resource_ops):
            self.violations.append("documentChanges sent to a client without documentChanges")
        for change in edit.document_changes or []:
            if (
                isinstance(change, types.CreateFile)
                and types.ResourceOperationKind.Create not in resource_ops
            ):
                self.violations.append("CreateFile sent to a client without create support")
            if (
                isinstance(change, types.DeleteFile)
                and types.ResourceOperationKind.Delete not in resource_ops
            ):
                self.violations.append("DeleteFile sent to a client without delete support")
            if isinstance(change, types.TextDocumentEdit):
                annotated = any(isinstance(e, types.AnnotatedTextEdit) for e in change.edits)
                if annotated and caps.change_annotation_support is None:
                    self.violations.append("AnnotatedTextEdit sent without changeAnnotationSupport")

    def _apply(self, edit: types.WorkspaceEdit, label: str) -> types.ApplyWorkspaceEditResult:
        if edit.changes:
            for uri, edits in edit.changes.items():
                self._change(self._buffer_for(uri), edits, dirty=True, label=label)
        for change in edit.document_changes or []:
            if isinstance(change, types.CreateFile):
                path = Path(to_fs_path(change.uri))
                if path.exists() and not (
                    change.options and (change.options.overwrite or change.options.ignore_if_exists)
                ):
                    return types.ApplyWorkspaceEditResult(
                        applied=False, failure_reason="file exists"
                    )
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(b"")
                self._buffer_for(change.uri)
            elif isinstance(change, types.DeleteFile):
                self._delete(change)
            elif isinstance(change, types.TextDocumentEdit):
                uri, version = change.text_document.uri, change.text_document.version
                buffer = self._buffer_for(uri)
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
                self._change(buffer, change.edits, dirty=True, label=label)
        return types.ApplyWorkspaceEditResult(applied=True)

    def _delete(self, change: types.DeleteFile) -> None:
        """Delete the file and close its buffer (VS Code closes the editor of a deleted file)."""
        path = Path(to_fs_path(change.uri))
        buffer = self.buffers.pop(change.uri, None)
        if buffer is not None:
            self.text_document_did_close(
                types.DidCloseTextDocumentParams(
                    text_document=types.TextDocumentIdentifier(uri=change.uri)
                )
            )
        path.unlink(missing_ok=True)

    def _buffer_for(self, uri: str) -> Buffer:
        """The open buffer for `uri`; an edit to a file not open opens it (VS Code, Neovim)."""
        if uri not in self.buffers:
            self.open(Path(to_fs_path(uri)))
        return self.buffers[uri]


def _ticked(edit: types.WorkspaceEdit, ticked: set[str]) -> types.WorkspaceEdit:
    """`edit` with only the annotated changes whose ids are in `ticked` (VS Code's preview)."""
    kept: list[Any] = []
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            edits = [e for e in change.edits if getattr(e, "annotation_id", None) in ticked]
            if edits:
                kept.append(attrs.evolve(change, edits=edits))
        elif getattr(change, "annotation_id", None) in ticked:
            kept.append(change)
    return attrs.evolve(edit, document_changes=kept)


# -- starting a server -----------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]


def server_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a test server: no real credentials, the repo importable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra or {})
    return env


def folder(path: Path, name: str | None = None) -> types.WorkspaceFolder:
    return types.WorkspaceFolder(uri=path.resolve().as_uri(), name=name or path.name)


@contextlib.asynccontextmanager
async def kesi_client(
    preset: str,
    folders: Sequence[Path],
    *,
    env: Mapping[str, str] | None = None,
    command: Sequence[str] = (sys.executable, "-m", "kesi_lsp"),
    init_options: Any = None,
    configuration: dict[str, Any] | None = None,
    check: bool = True,
) -> AsyncIterator[KesiClient]:
    """Start the server, initialize it as `preset` with `folders`, and shut it down after."""
    client = KesiClient(PRESETS[preset], configuration=configuration)
    await client.start_io(*command, env=server_env(env), cwd=str(REPO))
    try:
        params = types.InitializeParams(
            capabilities=client.preset.capabilities(),
            workspace_folders=[folder(f) for f in folders] or None,
            root_uri=folders[0].resolve().as_uri() if folders else None,
            initialization_options=init_options,
            client_info=types.ClientInfo(name=f"kesi-test-{preset}"),
        )
        result = await asyncio.wait_for(client.initialize_session(params), 30)
        client.encoding = str(result.capabilities.position_encoding or "utf-16")
        yield client
        if client._server is not None and client._server.returncode is None:
            await asyncio.wait_for(client.shutdown_session(), 30)
    finally:
        server = client._server
        if server is not None and server.returncode is None:
            server.kill()
        await asyncio.wait_for(client.stop(), 30)
    if check:
        assert not client.violations, client.violations
        assert not client.problems, client.problems
