"""KeSi's change sets in a real VS Code (design §2.9): tick one of two hunks in the Refactor
Preview, **KeSi: Undo Last Run**, the **KeSi Changes** view with its Keep / Undo buttons, and
under acceptEdits the pending hunks drawn in the editor (what they replaced shown inline), not
listed as Problems."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.plugins.scripted_api import StartServer
from tests.vscode.session import OpenVSCode, VSCode
from tests.vscode.workbench import Workbench

pytestmark = [pytest.mark.editor, pytest.mark.slow, pytest.mark.timeout(240)]

CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n"
FIXED = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
ONLY_SUB = CALC.replace("sub(a, b):\n    return a + b", "sub(a, b):\n    return a - b")
# Idle after a run that changed calc.py and ran nothing to check it: the verdict unverified.
IDLE_UNVERIFIED = re.compile(r"^KeSi · unverified \$(\d+\.\d{4})$")
ACCEPT = {"kesi.approvals": "acceptEdits"}


def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "calc.py").write_text(CALC)
    return folder


def both_fixes(*after: object) -> object:
    return script(
        reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
        reply("Both signs.", tool_use("write_file", {"file_path": "calc.py", "content": FIXED})),
        *after,  # type: ignore[arg-type]
    )


def wait_done(session: VSCode) -> None:
    """Wait for the run's last line in the KeSi channel (the status bar reads idle before the
    run has even started), then for the status bar to say the run is idle with its verdict:
    each run here edits calc.py and runs no test, so it ends unverified."""
    wb = session.workbench
    wb.wait_until(lambda: "━━ done" in session.output_channel(), 90_000, "the run to end")
    wb.wait_until(
        lambda: IDLE_UNVERIFIED.match(wb.status_text()) is not None,
        30_000,
        "the status idle with the verdict unverified",
    )


def ask_for_both_fixes(wb: Workbench) -> None:
    """Ask KeSi, from calc.py, for the run `both_fixes` scripts."""
    wb.open_file("calc.py")
    wb.run_command("KeSi: Ask")
    wb.type_into_input_box("Fix the signs of add and sub.")


def both_fixed(
    vscode: OpenVSCode, scripted_api: StartServer, tmp_path: Path
) -> tuple[Path, Workbench]:
    """One run under acceptEdits wrote both fixes and is over: calc.py has them, and its two
    hunks wait for a keep or an undo."""
    folder = project(tmp_path)
    api = scripted_api(both_fixes(reply("Both fixed.")))
    session = vscode(folder, api_url=api.base_url, settings=ACCEPT)
    ask_for_both_fixes(session.workbench)
    wait_done(session)
    return folder, session.workbench


def changes_pane(wb: Workbench) -> Locator:
    return wb.page.locator(".pane", has=wb.page.locator(".pane-header", has_text="KeSi Changes"))


def view_rows(wb: Workbench) -> list[str]:
    return [
        " ".join(t.split()) for t in changes_pane(wb).locator(".monaco-list-row").all_inner_texts()
    ]


def show_changes(wb: Workbench) -> Locator:
    """**KeSi: Show Changes**, once the view lists both hunks: its pane."""
    wb.run_command("KeSi: Show Changes")
    wb.wait_until(
        lambda: any("line 6" in row for row in view_rows(wb)), 30_000, "the hunks in the view"
    )
    return changes_pane(wb)


def press_until(
    wb: Workbench, target: tuple[str, str], done: Callable[[], bool], what: str
) -> None:
    """Press `target`'s button (row text, button label) in KeSi Changes until `done()`.

    Why again: the view redraws its rows as a run's last hunks and its end arrive, and a click
    on a row being replaced is lost (VS Code drops the old row's command; seen on a loaded CI
    machine). The button is pressed again only once `done()` has stayed false for a while, and
    a row that is gone by then (its change already done) is not pressed.
    """
    row_text, button = target
    row = changes_pane(wb).locator(".monaco-list-row", has_text=row_text).first
    for _ in range(5):
        try:
            row.hover(timeout=5_000)
            row.locator(f".action-label[aria-label='{button}']").click(timeout=5_000)
        except PlaywrightTimeout:
            pass
        try:
            wb.wait_until(done, 6_000, what)
            return
        except AssertionError:
            continue
    wb.wait_until(done, 30_000, what)


def test_tick_one_of_two_hunks_in_the_refactor_preview(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    folder = project(tmp_path)
    api = scripted_api(
        both_fixes(
            reply(
                "Only sub, then.",
                expect={
                    "last_tool_result_contains": "The user applied only part of your change to "
                    "calc.py"
                },
            )
        )
    )
    session = vscode(folder, api_url=api.base_url, settings={"kesi.review": "refactorPreview"})
    wb = session.workbench
    ask_for_both_fixes(wb)
    pane = wb.refactor_preview()
    rows = pane.locator(".monaco-list-row")
    wb.wait_until(lambda: rows.count() == 3, 30_000, "the file and its two changes")
    assert wb.preview_ticks() == [False, False, False], "every change starts unticked"
    # Each hunk is its own change: tick only the second (sub's fix).
    rows.nth(2).locator("input.edit-checkbox").check()
    wb.apply_preview()
    wb.wait_preview_closed()
    wait_done(session)
    assert (folder / "calc.py").read_text() == ONLY_SUB
    assert len(api.requests) == 3  # the third request carried the partial note (expect)


def test_undo_last_run_from_the_palette(vscode: OpenVSCode, scripted_api, tmp_path: Path) -> None:
    folder, wb = both_fixed(vscode, scripted_api, tmp_path)
    assert (folder / "calc.py").read_text() == FIXED
    # Pending changes: lenses over each.
    lenses = wb.page.locator(".contentWidgets .codelens-decoration a", has_text="KeSi: Undo")
    wb.wait_until(lambda: lenses.count() == 2, 30_000, "a KeSi: Undo lens over each change")
    wb.run_command("KeSi: Undo Last Run")
    wb.notification("KeSi: undid calc.py line 2, calc.py line 6.")
    wb.wait_until(lambda: (folder / "calc.py").read_text() == CALC, 30_000, "the undo on disk")
    wb.wait_until(lambda: not wb.active_tab_dirty(), 10_000, "the undo saved")
    wb.wait_until(lambda: lenses.count() == 0, 30_000, "no lens once undone")
    # The editor's own undo brings the change back.
    wb.click_editor()
    wb.page.keyboard.press("Control+Z")
    wb.wait_until(lambda: "return a + b" in wb.editor_text(), 10_000, "Ctrl+Z to bring it back")


def test_accept_edits_shows_what_went_inline_until_kept_or_undone(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    """Issue 32: under acceptEdits each line KeSi replaced is shown inline after the line that
    replaced it, until that change is undone or kept; pending changes are no Problems entries
    (the extension draws them itself)."""
    folder, wb = both_fixed(vscode, scripted_api, tmp_path)
    wb.wait_until(
        lambda: wb.inline_texts() == ["return a - b", "return a + b"],
        30_000,
        "what each fix replaced, shown after it",
    )
    assert wb.editor_text().splitlines()[1].strip() == "return a + b"  # the file has the fix
    wb.screenshot("accept-edits-inline")
    assert [row for row in wb.problems() if "KeSi" in row] == []
    undo = wb.page.locator(".contentWidgets .codelens-decoration a", has_text="KeSi: Undo")
    wb.wait_until(lambda: undo.count() == 2, 30_000, "a KeSi: Undo lens over each change")
    undo.first.click()
    wb.wait_until(lambda: (folder / "calc.py").read_text() != FIXED, 30_000, "one change undone")
    # Whichever change the lens took back, only the other one's old line is still shown.
    left = "return a + b" if (folder / "calc.py").read_text() == ONLY_SUB else "return a - b"
    wb.wait_until(lambda: wb.inline_texts() == [left], 30_000, "only the other change's line")
    keep = wb.page.locator(".contentWidgets .codelens-decoration a", has_text="KeSi: Keep")
    wb.wait_until(lambda: keep.count() == 1, 30_000, "a KeSi: Keep lens over the other")
    keep.first.click()
    wb.wait_until(lambda: wb.inline_texts() == [], 30_000, "nothing shown once kept")
    assert [row for row in wb.problems() if "KeSi" in row] == []


def test_the_changes_view_keeps_and_undoes(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    folder, wb = both_fixed(vscode, scripted_api, tmp_path)
    show_changes(wb)
    rows = view_rows(wb)
    assert any("Fix the signs of add and sub." in row and "2 not reviewed" in row for row in rows)
    assert any(row.startswith("calc.py") for row in rows), rows
    assert any("line 2" in row and "not reviewed yet" in row for row in rows), rows
    assert any(row.startswith("line 2 · return a + b") for row in rows), rows  # its code

    press_until(
        wb,
        ("line 2", "Undo"),
        lambda: (folder / "calc.py").read_text() == ONLY_SUB,
        "the first hunk undone",
    )
    # The view redraws its rows when the undo lands; a click on a row being replaced is lost,
    # so press the next button only on the redrawn view.
    wb.wait_until(
        lambda: any("line 2" in r and "undone" in r for r in view_rows(wb)),
        30_000,
        "the view showing line 2 undone",
    )
    press_until(
        wb,
        ("line 6", "Keep"),
        lambda: any("line 6" in r and "kept" in r for r in view_rows(wb)),
        "line 6 kept",
    )
    assert any("line 2" in r and "undone" in r for r in view_rows(wb)), view_rows(wb)
    assert (folder / "calc.py").read_text() == ONLY_SUB


def test_a_hunk_row_opens_its_diff(vscode: OpenVSCode, scripted_api, tmp_path: Path) -> None:
    """Issue 32: a hunk's row in KeSi Changes opens that change as a diff (what was there before
    it beside the file), not only the line; with acceptEdits nothing else shows what went."""
    folder, wb = both_fixed(vscode, scripted_api, tmp_path)
    pane = show_changes(wb)
    tab = wb.page.locator(".tab", has_text="KeSi's change: calc.py")
    # The view redraws its rows as the run's last hunks and its end arrive, and a click on a row
    # being replaced is lost (VS Code drops the old row's command): click until the diff opens.
    for _ in range(5):
        pane.locator(".monaco-list-row", has_text="line 6").first.click()
        try:
            tab.first.wait_for(timeout=6_000)
            break
        except PlaywrightTimeout:
            continue
    tab.first.wait_for(timeout=10_000)
    diff = wb.page.locator(".monaco-diff-editor")
    old = diff.locator(".editor.original .view-line", has_text="return a + b")
    new = diff.locator(".editor.modified .view-line", has_text="return a - b")
    wb.wait_until(lambda: old.count() >= 1 and new.count() >= 1, 30_000, "both sides of line 6")
    # Only this hunk is the diff: line 2's fix is on both sides.
    assert diff.locator(".editor.original .view-line", has_text="return a + b").count() == 2
    assert (folder / "calc.py").read_text() == FIXED  # looking changes nothing
