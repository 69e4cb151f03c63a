"""The demo's editor: KeSi's scripted editor (kesi_lsp.testing), shown on the screen.

The editor itself is `kesi_lsp.testing`'s, imitating an editor with every KeSi extension
(`experimental.kesi = {stream, reviewEdit, saveDocuments}`, versioned document changes with
file creation, code actions, didSave): it keeps the open documents in memory, applies
`workspace/applyEdit` to them, and saves them on `kesi/saveDocuments`. `DemoEditor` adds the
demo's part: every prompt, review, streamed word and tool call goes to the `Screen`, and the
answers to prompts and reviews come from `Answers`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from kesi_lsp.catalog import Locale, text
from kesi_lsp.demo.answers import Answers
from kesi_lsp.demo.screen import Screen
from kesi_lsp.testing import KESI_EDITOR, Editor, EditorClient

INPUT_VALUE_CHARS = 48
REVIEW_DECISIONS = ("accept", "acceptSession", "reject")


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


class DemoEditor:
    """The editor half of the demo (see the module docstring): `client` speaks LSP,
    `editor` is the scripted editor it carries."""

    def __init__(self, screen: Screen, answers: Answers, locale: Locale) -> None:
        self.screen = screen
        self.answers = answers
        self.locale = locale
        self.client = EditorClient(KESI_EDITOR)
        self.editor: Editor = self.client.editor
        self.editor.answer_prompt = self._prompt
        self.editor.answer_review = self._review
        self.editor.timeline.listeners.append(self._on_message)
        self.log = RunLog()

    def _on_message(self, method: str, params: Any, stamp: float) -> None:
        if method == "kesi/stream" and isinstance(params, dict):
            self._on_stream(params)
        elif method == "kesi/runFinished" and isinstance(params, dict):
            self.screen.end_text()
            self.log.finished = params
        elif method == types.WINDOW_SHOW_MESSAGE:
            self._on_show_message(params)

    # -- a run's story -----------------------------------------------------------------------

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
            tool_input = params.get("input")
            shown = show_input(tool_input if isinstance(tool_input, Mapping) else {})
            screen.tool(text("demo.tool.start", self.locale, tool=name, input=shown))
        elif kind == "toolEnd":
            key = "demo.tool.error" if params.get("isError") else "demo.tool.done"
            line = text(key, self.locale, summary=str(params.get("summary", "")))
            (screen.bad if params.get("isError") else screen.note)(line)
        elif kind == "edit":
            self.log.edits.append(str(params.get("path")))
            screen.good(text("demo.tool.edited", self.locale, path=str(params.get("path"))))
        elif kind == "notice":
            screen.warn(text("demo.tool.notice", self.locale, text=str(params.get("text", ""))))

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

    async def _prompt(self, params: types.ShowMessageRequestParams) -> str | None:
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
        return titles[index] if index is not None else None

    async def _review(self, params: dict[str, Any]) -> str:
        """`kesi/reviewEdit`: show the diff before it lands, then accept or reject it."""
        self.log.prompts += 1
        self.screen.end_text()
        self.screen.warn(text("demo.review.title", self.locale, path=str(params.get("path"))))
        self.screen.diff(str(params.get("diff", "")))
        labels = [text(f"demo.review.{d}", self.locale) for d in REVIEW_DECISIONS]
        index = await self.answers.choose(labels)
        decision = REVIEW_DECISIONS[index] if index is not None else "reject"
        if decision == "reject":
            self.log.refused += 1
        return decision
