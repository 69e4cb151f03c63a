"""After a change settles, the tool result gains what the editor's language servers newly
report (design §2.10); an editor that cannot say costs a sentence, never the run."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import pytest

from kesi_lsp.core.diagnostics.editor import EditorProblem, ProblemsUnavailableError, Snapshot
from kesi_lsp.core.diagnostics.watch import ProblemWatch, new_problems
from kesi_lsp.core.events import CommandFinished, ProblemsReported
from tests.core.workspace import Workspace, make_workspace

LAG = 0.3  # how long the fake language server takes to look at a changed file


def undefined_names(rel: str, text: str) -> list[EditorProblem]:
    """A tiny "language server": a line using `undefined_name` is an error."""
    return [
        EditorProblem(rel, n, "error", "undefined name 'undefined_name'", "fakels", "E1")
        for n, line in enumerate(text.splitlines(), 1)
        if "undefined_name" in line
    ]


class FakeEditor:
    """An editor with one language server that re-analyses a file LAG s after it changes."""

    def __init__(self, root: Path, analyse: Callable[[str, str], list[EditorProblem]]) -> None:
        self.root, self.analyse = root, analyse
        self.problems: dict[Path, tuple[EditorProblem, ...]] = {}
        self.changes: dict[Path, int] = {}
        self.seen: dict[Path, str] = {}
        self.opened: tuple[Path, ...] = ()
        self.fail: str | None = None
        self.silent = False
        self.counting = False  # count updates: 0 means no server ever reported on a file

    async def serve(self) -> None:
        while True:
            for path in [*self.opened, *self.seen]:
                if path.suffix != ".py":
                    continue
                text = path.read_text() if path.exists() else ""
                if self.seen.get(path) != text:
                    await asyncio.sleep(LAG)
                    self.seen[path] = text
                    self.problems[path] = tuple(self.analyse(path.name, text))
                    self.changes[path] = self.changes.get(path, 0) + 1
            await asyncio.sleep(0.02)

    async def snapshot(self, paths: Sequence[Path], patience: float) -> Snapshot:
        if self.fail is not None:
            raise ProblemsUnavailableError(self.fail)
        if self.silent:
            await asyncio.sleep(patience)
            raise ProblemsUnavailableError("it did not answer within 1 s")
        for path in paths:
            self.seen.setdefault(path, path.read_text() if path.exists() else "")
            self.problems.setdefault(path, tuple(self.analyse(path.name, self.seen[path])))
        default = 0 if self.counting else None
        counts = {p: self.changes.get(p, default) for p in paths}
        return Snapshot({p: self.problems.get(p, ()) for p in paths}, counts)

    def open_files(self) -> tuple[Path, ...]:
        return self.opened


@pytest.fixture
async def watched(tmp_path: Path) -> AsyncIterator[tuple[Workspace, FakeEditor]]:
    ws = make_workspace(tmp_path)
    editor = FakeEditor(ws.root, undefined_names)
    ws.ctx.problems = ProblemWatch(editor, "en")
    server = asyncio.create_task(editor.serve())
    yield ws, editor
    server.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await server


async def edit(ws: Workspace, new: str) -> tuple[str, float]:
    started = time.monotonic()
    result = await ws.call("edit_file", file_path="rates.py", old_string="rate = 1", new_string=new)
    assert not result.is_error, result.text
    return result.text, time.monotonic() - started


async def test_an_edit_that_breaks_the_file_reports_the_new_error(
    watched: tuple[Workspace, FakeEditor],
) -> None:
    ws, _ = watched
    ws.write("rates.py", "import os\nrate = 1\nold = undefined_name\n")
    said, _ = await edit(ws, "rate = undefined_name")
    assert said == (
        "Replaced (starting at line 2).\n"
        "New problems the editor reports since this change:\n"
        "- rates.py:2 error: undefined name 'undefined_name' (fakels E1)"
    )  # line 3's old error is not new, though its message is the same
    reported = [e for e in ws.events if isinstance(e, ProblemsReported)]
    assert len(reported) == 1 and len(reported[0].outstanding) == 1


async def test_a_clean_edit_settles_as_soon_as_the_server_looked(
    watched: tuple[Workspace, FakeEditor],
) -> None:
    ws, _ = watched
    ws.write("rates.py", "rate = 1\n")
    said, took = await edit(ws, "rate = 2")
    assert said.endswith("The editor reports no new errors or warnings in rates.py.")
    assert LAG < took < 1.5  # not the whole 2 s bound


async def test_a_file_no_language_server_ever_reported_on_costs_little(
    watched: tuple[Workspace, FakeEditor],
) -> None:
    ws, editor = watched
    ws.write("notes.txt", "rate = 1\n")
    editor.counting = True
    started = time.monotonic()
    result = await ws.call("edit_file", file_path="notes.txt", old_string="1", new_string="2")
    assert result.text.endswith("The editor reports no new errors or warnings in notes.txt.")
    assert time.monotonic() - started < 1.2


async def test_an_editor_that_answers_with_an_error(watched: tuple[Workspace, FakeEditor]) -> None:
    ws, editor = watched
    path = ws.write("rates.py", "rate = 1\n")
    editor.fail = "it answered with an error: boom"
    said, _ = await edit(ws, "rate = 2")
    assert said == (
        "Replaced (starting at line 1).\n(The editor's diagnostics were unavailable: it "
        "answered with an error: boom. Nothing is known about new errors; run the project's "
        "checks to find out.)"
    )
    assert path.read_text() == "rate = 2\n"  # the edit landed; the run goes on
    assert [e.available for e in ws.events if isinstance(e, ProblemsReported)] == [False]


async def test_an_editor_that_does_not_answer_costs_a_bounded_wait(
    watched: tuple[Workspace, FakeEditor],
) -> None:
    ws, editor = watched
    ws.write("rates.py", "rate = 1\n")
    editor.silent = True
    said, took = await edit(ws, "rate = 2")
    assert "diagnostics were unavailable: it did not answer within 1 s" in said
    assert took < 2.0


async def test_a_command_that_changed_an_open_file(watched: tuple[Workspace, FakeEditor]) -> None:
    ws, editor = watched
    path = ws.write("rates.py", "rate = 1\n")
    other = ws.write("other.py", "x = 1\n")
    editor.opened = (path, other)
    command = "printf 'rate = undefined_name\\n' > rates.py"
    result = await ws.call("run_command", command=command)
    assert "(exit code 0)\nNew problems the editor reports since this change:" in result.text
    assert "- rates.py:1 error: undefined name" in result.text
    assert result.summary == "(no output) (exit code 0)"
    finished = [e for e in ws.events if isinstance(e, CommandFinished)]
    assert finished == [CommandFinished(command, 0, False, ("rates.py",), result.summary)]


async def test_without_the_editors_diagnostics_nothing_is_claimed(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path)
    ws.write("rates.py", "rate = 1\n")
    said, _ = await edit(ws, "rate = undefined_name")
    assert said == "Replaced (starting at line 1)."
    assert not any(isinstance(e, ProblemsReported) for e in ws.events)


def test_problems_are_compared_without_their_lines() -> None:
    moved = EditorProblem("a.py", 9, "warning", "unused import", "ruff")
    same = EditorProblem("a.py", 3, "warning", "unused import", "ruff")
    twice = EditorProblem("a.py", 4, "warning", "unused import", "ruff")
    assert new_problems([same], [moved]) == []
    assert new_problems([same], [moved, twice]) == [twice]
