"""KeSi's change sets in a real Neovim (design §2.9): hunk by hunk in the review tab, signs and
lenses over changes not reviewed yet, :KeSiChanges, :KeSiKeep, :KeSiUndo, :KeSiUndoRun, and `u`
after an undo bringing the change back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import FAKE_KEY, KesiEditor, disk

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n"
FIXED = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
ONLY_SUB = CALC.replace("sub(a, b):\n    return a + b", "sub(a, b):\n    return a - b")
READ = tool_use("read_file", {"file_path": "calc.py"})
WRITE = tool_use("write_file", {"file_path": "calc.py", "content": FIXED})


def project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "calc"\n')
    (root / "calc.py").write_text(CALC)
    return root


def start(open_editor: OpenEditor, root: Path, base_url: str, **server: Any) -> KesiEditor:
    env = {"ANTHROPIC_BASE_URL": base_url, "ANTHROPIC_API_KEY": FAKE_KEY}
    ed = open_editor(root, env=env, setup={"server": server} if server else None)
    ed.cmd("edit calc.py")
    kesi = KesiEditor(ed)
    kesi.wait_client()
    return kesi


def buffer_text(kesi: KesiEditor) -> str:
    return "\n".join(kesi.ed.lines(kesi.ed.file_buffer("calc.py"))) + "\n"


def signs(kesi: KesiEditor) -> list[int]:
    """The rows (1-based) carrying KeSi's sign for changes not reviewed yet."""
    rows = kesi.ed.lua(
        "local b = ...; local ns = require('kesi.changes').ns "
        "local out = {} for _, m in ipairs(vim.api.nvim_buf_get_extmarks(b, ns, 0, -1, {})) do "
        "table.insert(out, m[2] + 1) end return out",
        kesi.ed.file_buffer("calc.py"),
    )
    return sorted(rows)


def lens_titles(kesi: KesiEditor) -> list[str]:
    return list(
        kesi.ed.lua(
            "local out = {} for _, l in ipairs(vim.lsp.codelens.get(...)) do "
            "if l.command then table.insert(out, l.command.title) end end return out",
            kesi.ed.file_buffer("calc.py"),
        )
    )


def test_hunk_by_hunk_in_the_review_tab(
    open_editor: OpenEditor, scripted_api: Any, tmp_path: Path
) -> None:
    api = scripted_api(
        script(
            reply("Reading.", READ),
            reply("Both at once.", WRITE),
            reply(
                "Only sub, then.",
                expect={
                    "last_tool_result_contains": "The user applied only part of your change to "
                    "calc.py"
                },
            ),
        )
    )
    root = project(tmp_path / "calc")
    kesi = start(open_editor, root, api.base_url)
    ed = kesi.ed
    ed.cmd("KeSiAsk fix add and sub")
    review = kesi.wait_review()
    assert review["after"] == FIXED.splitlines()
    # The cursor is on the first change: reject it; the cursor moves on to the second.
    ed.keys("gH")
    ed.wait(
        "vim.api.nvim_win_get_cursor(0)[1] == 6",
        "the cursor on the second change",
    )
    shown = ed.lua(
        "local _, v = next(require('kesi.review').views) return "
        "vim.api.nvim_buf_get_lines(v.bufs[2], 0, -1, true)"
    )
    assert shown == ONLY_SUB.splitlines(), "the rejected hunk shows its old lines"
    ed.keys("gh")  # keep the second: every hunk decided, the answer goes
    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert buffer_text(kesi) == ONLY_SUB
    assert disk(root, "calc.py") == ONLY_SUB


def test_signs_lenses_undo_run_and_u_brings_it_back(
    open_editor: OpenEditor, scripted_api: Any, tmp_path: Path
) -> None:
    api = scripted_api(script(reply("Reading.", READ), reply("Both.", WRITE), reply("Done.")))
    root = project(tmp_path / "calc")
    kesi = start(open_editor, root, api.base_url, approvals="acceptEdits")
    ed = kesi.ed
    ed.cmd("KeSiAsk fix add and sub")
    assert kesi.wait_finished()["status"] == "done"
    assert buffer_text(kesi) == FIXED
    ed.wait_until(lambda: signs(kesi) == [2, 6], "a sign on each changed line")
    ed.wait_until(
        lambda: (
            lens_titles(kesi)
            == ["KeSi: Keep", "KeSi: Undo", "Keep all", "Undo all", "KeSi: Keep", "KeSi: Undo"]
        ),
        "the lenses over the two changes",
    )
    # :KeSiChanges lists them in the quickfix list.
    ed.cmd("KeSiChanges")
    items = ed.wait("#vim.fn.getqflist() == 2 and vim.fn.getqflist()", "the quickfix list")
    assert [item["lnum"] for item in items] == [2, 6]
    assert all("KeSi" in item["text"] for item in items)
    # The server's rows: each hunk by its code, the run by what was asked (issue 32).
    assert items[0]["text"].startswith("KeSi: line 2 · return a + b · −1 +1 · fix add and sub · ")
    ed.cmd("cclose")
    ed.cmd("buffer calc.py")
    # :KeSiUndoRun takes back the whole run, as one edit.
    ed.cmd("KeSiUndoRun")
    ed.wait_until(lambda: buffer_text(kesi) == CALC, "the run undone in the buffer")
    ed.wait_until(lambda: disk(root, "calc.py") == CALC, "the run undone on disk")
    ed.wait_until(lambda: signs(kesi) == [], "no sign once undone")
    kesi.notified("KeSi: undid calc.py line 2, calc.py line 6.")
    # `u` brings the change back: the editor's own undo, one step for the whole undo.
    ed.keys("u")
    ed.wait_until(lambda: buffer_text(kesi) == FIXED, "u to bring the change back")
    ed.wait_until(lambda: signs(kesi) == [2, 6], "the changes pending again")


def test_keep_and_undo_the_change_under_the_cursor(
    open_editor: OpenEditor, scripted_api: Any, tmp_path: Path
) -> None:
    api = scripted_api(script(reply("Reading.", READ), reply("Both.", WRITE), reply("Done.")))
    root = project(tmp_path / "calc")
    kesi = start(open_editor, root, api.base_url, approvals="acceptEdits")
    ed = kesi.ed
    ed.cmd("KeSiAsk fix add and sub")
    kesi.wait_finished()
    ed.wait_until(lambda: signs(kesi) == [2, 6], "the signs")
    ed.keys("2G")
    ed.cmd("KeSiUndo")
    ed.wait_until(lambda: buffer_text(kesi) == ONLY_SUB, "the first change undone")
    ed.keys("6G")
    ed.cmd("KeSiKeep")
    ed.wait_until(lambda: signs(kesi) == [], "nothing left to review")
    kesi.notified("KeSi: kept calc.py line 6.")
    ed.cmd("KeSiKeep")  # again, from the file as a whole: nothing happens twice
    said = kesi.notified("Nothing to do: calc.py line 6 already kept.")
    assert "calc.py line 2: already undone, so there is nothing to keep." in said
    assert buffer_text(kesi) == ONLY_SUB == disk(root, "calc.py")
