"""The demo's editor: KeSi's scripted editor (kesi_lsp.testing), shown on the screen.

The editor itself is `kesi_lsp.testing`'s, imitating an editor with KeSi's extensions
(`experimental.kesi = {stream, reviewEdit, saveDocuments, plan}`; no `diagnostics`: it runs no
other language server, so nothing is claimed about problems), versioned document changes with
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
PLAN_MARKS = {"completed": "✓", "in_progress": "▶", "pending": "○"}
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
    label: str | None = None  # a request that is not a round of the run: a summary, a search


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
        elif method == "kesi/plan" and isinstance(params, dict):
            self._on_plan(params)
        elif method == types.WINDOW_SHOW_MESSAGE:
            self._on_show_message(params)

    # -- a run's story -----------------------------------------------------------------------

    def _on_stream(self, params: dict[str, Any]) -> None:
        kind = params.get("kind")
        screen, rounds = self.screen, self.log.rounds
        nested = bool(params.get("depth"))  # a search sub-agent's event, under its tool call
        if kind == "usage" and (nested or params.get("purpose") == "compaction"):
            key = "demo.bill.search" if nested else "demo.bill.summary"
            usage = params.get("request") or {}
            rounds.append(Round(len(rounds) + 1, 0.0, usage=usage, label=text(key, self.locale)))
            return
        if nested and kind in ("turn", "toolStart"):
            if kind == "toolStart":
                shown = show_input(params.get("input") or {})
                line = text("demo.tool.start", self.locale, tool=params.get("tool"), input=shown)
                screen.tool(f"    {line}")
            return
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
        self.screen.end_text()
        items = [i for i in params.get("items") or [] if isinstance(i, Mapping)]
        done = sum(1 for item in items if item.get("status") == "completed")
        self.screen.info(text("demo.plan.title", self.locale, done=done, total=len(items)))
        for item in items:
            mark = PLAN_MARKS.get(str(item.get("status")), "·")
            line = text("demo.plan.item", self.locale, mark=mark, content=item.get("content"))
            (self.screen.good if mark == "✓" else self.screen.note)(line)

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
        yes, no = (
            _find(titles, "permissions.answer.once", self.locale),
            _find(titles, "permissions.answer.deny", self.locale),
        )
        index = await self.answers.choose(titles, yes=yes, no=no)
        if index is None or index == no:
            self.log.refused += 1
        return titles[index] if index is not None else None

    async def _review(self, params: dict[str, Any]) -> str:
        """`kesi/reviewEdit`: show the diff before it lands, then accept or reject it."""
        self.log.prompts += 1
        self.screen.end_text()
        self.screen.warn(text("demo.review.title", self.locale, path=str(params.get("path"))))
        self.screen.diff(str(params.get("diff", "")))
        labels = [text(f"demo.review.{d}", self.locale) for d in REVIEW_DECISIONS]
        index = await self.answers.choose(labels, yes=0, no=len(labels) - 1)
        decision = REVIEW_DECISIONS[index] if index is not None else "reject"
        if decision == "reject":
            self.log.refused += 1
        return decision


def _find(titles: list[str], key: str, locale: Locale) -> int:
    """Where the server put the answer `key` among the prompt's buttons (it reads them by
    title, in the session's locale); the safe first one when it is missing."""
    wanted = text(key, locale)
    return titles.index(wanted) if wanted in titles else 0
