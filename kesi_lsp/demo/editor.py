"""The demo's editor: a pygls `LanguageClient` that drives `kesi-lsp` the way VS Code would.

It announces what KeSi's own editor clients announce (`experimental.kesi = {stream,
reviewEdit, saveDocuments, plan}` (no `diagnostics`: the demo runs no other language server,
so it claims nothing about problems), versioned document changes with file creation, code actions,
didSave), keeps the open documents in memory, applies `workspace/applyEdit` to them (opening a
file the edit touches first: didOpen, then didChange), saves them on `kesi/saveDocuments`
(didSave), and shows every prompt, review, streamed word and tool call on the `Screen`. The
answers to prompts and reviews come from `Answers`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import cattrs
from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import to_fs_path

from kesi_lsp import __version__
from kesi_lsp.catalog import Locale, text
from kesi_lsp.demo.answers import Answers
from kesi_lsp.demo.buffers import Buffer, apply_text_edits
from kesi_lsp.demo.screen import Screen
from kesi_lsp.lsp.wire import plain_json_converter

KESI_EXPERIMENTAL = {"stream": True, "reviewEdit": True, "saveDocuments": True, "plan": True}
PLAN_MARKS = {"completed": "✓", "in_progress": "▶", "pending": "○"}
INPUT_VALUE_CHARS = 48


def converter() -> cattrs.Converter:
    """KeSi's wire converter, plus a correct reading of code-action results.

    lsprotocol (2025.0.0) reads any code-action result that has a `command` field as a
    `Command`, so a `CodeAction` carrying a command (KeSi's "fix this") would come back as a
    Command whose command is a stringified dict. In a `Command` the field is a string; in a
    `CodeAction` it is an object: that is what an editor looks at.
    """
    conv = plain_json_converter()

    def code_action_or_command(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return conv.structure(obj, types.Command)
        return conv.structure(obj, types.CodeAction)

    conv.register_structure_hook(
        Union[types.Command, types.CodeAction],  # noqa: UP007 (the key lsprotocol uses)
        code_action_or_command,
    )
    return conv


def capabilities() -> types.ClientCapabilities:
    """What the demo editor can do (and therefore what KeSi may ask of it)."""
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            apply_edit=True,
            workspace_edit=types.WorkspaceEditClientCapabilities(
                document_changes=True,
                resource_operations=[types.ResourceOperationKind.Create],
            ),
            workspace_folders=True,
            execute_command=types.ExecuteCommandClientCapabilities(),
        ),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(
                        value_set=["", "quickfix", "refactor", "refactor.rewrite", "source"]
                    )
                )
            ),
        ),
        window=types.WindowClientCapabilities(
            show_message=types.ShowMessageRequestClientCapabilities(
                message_action_item=types.ClientShowMessageActionItemOptions(
                    additional_properties_support=False
                )
            )
        ),
        general=types.GeneralClientCapabilities(position_encodings=["utf-16"]),
        experimental={"kesi": dict(KESI_EXPERIMENTAL)},
    )


def show_input(tool_input: Mapping[str, Any]) -> str:
    """A tool input the way the seed prints it (`{'file_path': 'rules.py'}`), long values cut."""
    shown: dict[str, Any] = {}
    for key, value in tool_input.items():
        if isinstance(value, str):
            one_line = value.replace("\n", "\\n")
            if len(one_line) > INPUT_VALUE_CHARS:
                one_line = one_line[: INPUT_VALUE_CHARS - 3] + "..."
            shown[key] = one_line
        else:
            shown[key] = value
    return repr(shown)


@dataclass
class Round:
    """One model round-trip as the editor saw it: usage, time, and the tools it asked for."""

    number: int
    started: float
    seconds: float = 0.0
    usage: Mapping[str, Any] = field(default_factory=dict)
    tools: list[str] = field(default_factory=list)


@dataclass
class RunLog:
    """What the editor collected about one run."""

    rounds: list[Round] = field(default_factory=list)
    finished: dict[str, Any] | None = None
    edits: list[str] = field(default_factory=list)
    prompts: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)


class DemoEditor(LanguageClient):
    """The editor half of the demo (see the module docstring)."""

    def __init__(self, screen: Screen, answers: Answers, locale: Locale) -> None:
        super().__init__("kesi-lsp-demo", __version__, converter_factory=converter)
        self.screen = screen
        self.answers = answers
        self.locale = locale
        self.buffers: dict[str, Buffer] = {}
        self.log = RunLog()
        self._finished = asyncio.Event()
        self._register()

    # -- wiring --------------------------------------------------------------------------------

    def _register(self) -> None:
        handlers: dict[str, Callable[[Any], Any]] = {
            "kesi/stream": self._on_stream,
            "kesi/runFinished": self._on_run_finished,
            "kesi/plan": self._on_plan,
            "kesi/reviewEdit": self._on_review_edit,
            "kesi/saveDocuments": self._on_save_documents,
            types.WORKSPACE_APPLY_EDIT: self._on_apply_edit,
            types.WINDOW_SHOW_MESSAGE_REQUEST: self._on_prompt,
            types.WINDOW_SHOW_MESSAGE: self._on_show_message,
            types.WINDOW_LOG_MESSAGE: lambda params: None,
        }
        for method, handler in handlers.items():
            self.feature(method)(plain_handler(handler))

    # -- documents (the user's side) -------------------------------------------------------

    def open(self, path: Path) -> Buffer:
        """Open `path` like an editor tab: read it, send didOpen."""
        uri = path.resolve().as_uri()
        if uri in self.buffers:
            return self.buffers[uri]
        content = path.read_bytes().decode("utf-8") if path.exists() else ""
        buffer = Buffer(path.resolve(), uri, content)
        self.buffers[uri] = buffer
        self.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id=_language(path), version=buffer.version, text=content
                )
            )
        )
        return buffer

    def _change(self, buffer: Buffer, edits: list[types.TextEdit]) -> None:
        buffer.text = apply_text_edits(buffer.text, edits)
        buffer.version += 1
        buffer.dirty = True
        ordered = sorted(
            edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
        )
        self.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=buffer.uri, version=buffer.version
                ),
                content_changes=[
                    types.TextDocumentContentChangePartial(range=e.range, text=e.new_text)
                    for e in ordered
                ],
            )
        )

    def save(self, buffer: Buffer) -> None:
        buffer.path.write_bytes(buffer.text.encode("utf-8"))
        buffer.dirty = False
        self.text_document_did_save(
            types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=buffer.uri)
            )
        )

    # -- a run's story -----------------------------------------------------------------------

    async def wait_finished(self, seconds: float) -> dict[str, Any]:
        await asyncio.wait_for(self._finished.wait(), seconds)
        assert self.log.finished is not None
        return self.log.finished

    def _on_stream(self, params: dict[str, Any]) -> None:
        kind = params.get("kind")
        screen, rounds = self.screen, self.log.rounds
        if kind == "text":
            screen.stream_text(str(params.get("text", "")))
        elif kind == "turn":
            rounds.append(Round(int(params.get("turn", len(rounds) + 1)), time.monotonic()))
        elif kind == "usage" and rounds:
            rounds[-1].usage = params.get("request") or {}
            rounds[-1].seconds = time.monotonic() - rounds[-1].started
        elif kind == "toolStart":
            name = str(params.get("tool"))
            if rounds:
                rounds[-1].tools.append(name)
            if name == "todo":
                return  # the plan itself follows as a block (kesi/plan)
            tool_input = params.get("input")
            shown = show_input(tool_input if isinstance(tool_input, Mapping) else {})
            screen.tool(text("demo.tool.start", self.locale, tool=name, input=shown))
        elif kind == "toolEnd":
            if params.get("tool") == "todo" and not params.get("isError"):
                return  # shown as the plan block
            key = "demo.tool.error" if params.get("isError") else "demo.tool.done"
            line = text(key, self.locale, summary=str(params.get("summary", "")))
            (screen.bad if params.get("isError") else screen.note)(line)
        elif kind == "edit":
            self.log.edits.append(str(params.get("path")))
            screen.good(text("demo.tool.edited", self.locale, path=str(params.get("path"))))
        elif kind == "notice":
            screen.warn(text("demo.tool.notice", self.locale, text=str(params.get("text", ""))))

    def _on_plan(self, params: dict[str, Any]) -> None:
        """The model's plan, whole, each time it changes (`kesi/plan`)."""
        items = [i for i in params.get("items") or [] if isinstance(i, Mapping)]
        done = sum(1 for item in items if item.get("status") == "completed")
        self.screen.info(text("demo.plan.title", self.locale, done=done, total=len(items)))
        for item in items:
            mark = PLAN_MARKS.get(str(item.get("status")), "·")
            line = text("demo.plan.item", self.locale, mark=mark, content=item.get("content"))
            (self.screen.good if mark == "✓" else self.screen.note)(line)

    def _on_run_finished(self, params: dict[str, Any]) -> None:
        self.screen.end_text()
        self.log.finished = params
        self._finished.set()

    def _on_show_message(self, params: types.ShowMessageParams) -> None:
        line = text("demo.editor.message", self.locale, message=params.message)
        if params.type == types.MessageType.Error:
            self.log.errors.append(params.message)
            self.screen.bad(line)
        elif params.type == types.MessageType.Warning:
            self.screen.warn(line)
        else:
            self.screen.note(line)

    # -- questions from the server ------------------------------------------------------------

    async def _on_prompt(
        self, params: types.ShowMessageRequestParams
    ) -> types.MessageActionItem | None:
        """A permission prompt (`window/showMessageRequest`): show it, get an answer."""
        self.log.prompts += 1
        self.screen.end_text()
        self.screen.warn(text("demo.prompt.title", self.locale))
        self.screen.block(params.message, style="yellow")
        titles = [action.title for action in params.actions or []]
        if not titles:
            return None
        index = await self.answers.choose(titles)
        if index is None or index == len(titles) - 1:
            self.log.refused += 1
        return types.MessageActionItem(title=titles[index]) if index is not None else None

    async def _on_review_edit(self, params: dict[str, Any]) -> dict[str, str]:
        """`kesi/reviewEdit`: show the diff before it lands, then accept or reject it."""
        self.log.prompts += 1
        self.screen.end_text()
        self.screen.warn(text("demo.review.title", self.locale, path=str(params.get("path"))))
        self.screen.diff(str(params.get("diff", "")))
        decisions = ["accept", "acceptSession", "reject"]
        labels = [text(f"demo.review.{d}", self.locale) for d in decisions]
        index = await self.answers.choose(labels)
        decision = decisions[index] if index is not None else "reject"
        if decision == "reject":
            self.log.refused += 1
        return {"decision": decision}

    def _on_apply_edit(
        self, params: types.ApplyWorkspaceEditParams
    ) -> types.ApplyWorkspaceEditResult:
        """Apply the edit to the buffers (not the disk), as an editor does."""
        edit = params.edit
        try:
            for uri, edits in (edit.changes or {}).items():
                self._change(self._buffer_for(uri), list(edits))
            for change in edit.document_changes or []:
                if isinstance(change, types.CreateFile):
                    path = Path(to_fs_path(change.uri) or "")
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.touch()
                    self.open(path)
                elif isinstance(change, types.TextDocumentEdit):
                    buffer = self._buffer_for(change.text_document.uri)
                    version = change.text_document.version
                    if version is not None and version != buffer.version:
                        return types.ApplyWorkspaceEditResult(
                            applied=False, failure_reason="version mismatch"
                        )
                    self._change(buffer, [e for e in change.edits if isinstance(e, types.TextEdit)])
        except OSError as exc:
            return types.ApplyWorkspaceEditResult(applied=False, failure_reason=str(exc))
        return types.ApplyWorkspaceEditResult(applied=True)

    def _buffer_for(self, uri: str) -> Buffer:
        """The buffer for `uri`; an edit to a file that is not open opens it first."""
        if uri not in self.buffers:
            self.open(Path(to_fs_path(uri) or ""))
        return self.buffers[uri]

    def _on_save_documents(self, params: dict[str, Any]) -> dict[str, Any]:
        saved = []
        for uri in params.get("uris", []):
            if uri in self.buffers:
                self.save(self.buffers[uri])
                saved.append(uri)
        return {"saved": saved}


def _language(path: Path) -> str:
    return {".py": "python", ".md": "markdown"}.get(path.suffix, "plaintext")


def plain_handler(handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """pygls tags handlers with attributes, which bound methods cannot carry."""
    if asyncio.iscoroutinefunction(handler):

        async def async_handler(params: Any) -> Any:
            return await handler(params)

        return async_handler

    def sync_handler(params: Any) -> Any:
        return handler(params)

    return sync_handler
