"""KeSi: Fix This in a real VS Code, end to end.

code-server runs the packaged extension, which starts this checkout's `kesi-lsp`; the agent
talks to the scripted Messages API through the real anthropic SDK. The test does what a user
does: opens the failing file, picks **KeSi: Fix This**, ticks the change in the Refactor
Preview and applies it, allows the test command, and reads the result — on disk, in the
**KeSi** output channel and in the status bar.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, stall_after, tool_use
from tests.story import words
from tests.vscode.panel import Panel
from tests.vscode.project import BUGGY, COMMAND, COST, FIXED, TEST, failing_project
from tests.vscode.session import OpenVSCode
from tests.vscode.workbench import KESI_STATUS

pytestmark = [pytest.mark.editor, pytest.mark.slow, pytest.mark.timeout(240)]


def read_then_edit(after_edit: list[object]) -> object:
    """The model reads calc.py, proposes the fix, then does whatever `after_edit` says."""
    return script(
        reply("Let me read the code.", tool_use("read_file", {"file_path": "calc.py"})),
        reply(
            "`add` subtracts instead of adding. Fixing it.",
            tool_use(
                "edit_file",
                {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
            ),
            expect={"last_tool_result_contains": "return a - b"},
        ),
        *after_edit,  # type: ignore[arg-type]
    )


def test_fix_this_accept_the_preview_and_allow_the_command(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path)
    api = scripted_api(
        read_then_edit(
            [
                reply(
                    "Now the tests.",
                    tool_use("run_command", {"command": COMMAND}),
                    expect={"last_tool_result_is_error": False},
                ),
                reply(
                    "Fixed: `add` now adds, and the test passes.",
                    expect={"last_tool_result_contains": "OK"},
                ),
            ]
        )
    )
    session = vscode(project, api_url=api.base_url, settings={"kesi.review": "refactorPreview"})
    wb = session.workbench

    # Unsaved work in another file must stay unsaved: KeSi saves only what it changed.
    wb.open_file("test_calc.py")
    wb.type_at_end("# work in progress\n")
    wb.wait_until(lambda: wb.tab_dirty("test_calc.py"), 10_000, "test_calc.py to be dirty")

    wb.open_file("calc.py")
    wb.select_all()
    wb.fix_this()

    # The edit waits in the Refactor Preview, unticked, until the user decides.
    wb.refactor_preview()
    assert wb.preview_ticks() == [False, False]
    assert (project / "calc.py").read_text() == BUGGY
    wb.tick_preview_file("calc.py")
    wb.apply_preview()
    wb.wait_preview_closed()

    # The command is not read-only, so KeSi asks first (Day 14: "Allow it?", Deny first), in
    # the KeSi panel.
    prompt = Panel(wb).answer(COMMAND, "Allow once")
    assert "Allow for this session" in prompt and "Deny" in prompt and "Allow it?" in prompt

    wb.wait_until(lambda: COST.match(wb.status_text()) is not None, 90_000, "the run to end")

    assert (project / "calc.py").read_text() == FIXED
    assert not wb.tab_dirty("calc.py"), "the accepted edit was not saved"
    assert wb.tab_dirty("test_calc.py"), "KeSi saved a file it did not change"
    assert wb.unsaved_files() == 1
    assert (project / "test_calc.py").read_text() == TEST

    channel = session.output_channel()
    assert "━━ Fix this · calc.py:1-2 ━━" in channel
    assert "Let me read the code." in channel
    assert words.tool("read_file", "calc.py") in channel
    assert words.tool("edit_file", "calc.py") in channel
    assert words.tool("run_command", COMMAND) in channel
    assert words.edited("calc.py") in channel and "    +    return a + b" in channel
    assert "Fixed: `add` now adds, and the test passes." in channel
    assert f"  Working directory: {project.resolve()}" in channel  # Day 15's start-up lines
    assert "  Command sandbox: " in channel
    # The run's last line: the server's status word and the seed's bill (Day 18), whole.
    bill = re.search(
        r"━━ done · verified · (\(this run: 4 request\(s\), input [\d,]+, output [\d,]+"
        r"(?:, cache read [\d,]+, cache write [\d,]+)?, \$(\d+\.\d{4}); "
        r"session total \$\d+\.\d{4}\)) ━━\n$",
        channel,
    )
    assert bill, channel
    # The tests passed after the edit: the server's verdict ends the run, and the status bar
    # says it.
    assert words.verdict(f"{COMMAND} passed after the last change") in channel
    assert wb.status_text().startswith("KeSi · verified $")

    # What the user sees: the output panel on the KeSi channel, the cost in the status bar,
    # and the same total from KeSi: Show Cost.
    wb.run_command("KeSi: Show Output")
    wb.wait_until(
        lambda: "Fixed: `add` now adds" in wb.output_panel_text(), 15_000, "the output panel"
    )
    shown = COST.match(wb.status_text())
    assert shown is not None and float(shown.group(1)) > 0 and shown.group(1) == bill.group(2)
    assert bill.group(1) in wb.status_tooltip("this run: 4 request(s)"), "the tooltip's bill"
    wb.run_command("KeSi: Show Cost")
    cost = wb.notification("This session: 4 request(s)")  # the seed's /cost, as the server says
    assert f"Total ${shown.group(1)}" in cost.inner_text()
    assert len(api.requests) == 4


def test_a_rejected_preview_leaves_the_file_untouched(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path)
    api = scripted_api(
        read_then_edit(
            [
                reply(
                    "Understood, I left calc.py as it was.",
                    expect={"last_tool_result_is_error": True},
                ),
            ]
        )
    )
    session = vscode(project, api_url=api.base_url, settings={"kesi.review": "refactorPreview"})
    wb = session.workbench

    wb.open_file("calc.py")
    wb.select_all()
    wb.code_action("KeSi: fix this")  # the lightbulb this time
    wb.type_into_input_box("")  # what to keep in mind: nothing, find the cause and fix it
    wb.refactor_preview()
    wb.discard_preview()
    wb.wait_preview_closed()

    wb.wait_until(lambda: COST.match(wb.status_text()) is not None, 90_000, "the run to end")
    assert (project / "calc.py").read_text() == BUGGY
    assert not wb.active_tab_dirty()
    assert "return a - b" in wb.editor_text()

    channel = session.output_channel()
    assert "━━ Fix this · calc.py:1-2 ━━" in channel
    assert words.tool("edit_file", "calc.py") in channel
    assert f"\n{words.result('', error=True)}" in channel, channel
    assert words.edited("calc.py") not in channel
    assert "Understood, I left calc.py as it was." in channel
    assert len(api.requests) == 3


def test_cancel_from_the_status_bar(vscode: OpenVSCode, scripted_api, tmp_path: Path) -> None:
    project = failing_project(tmp_path)
    # The model starts explaining, then the stream goes quiet: the user has seen enough.
    api = scripted_api(
        script(stall_after(8, "Let me think about this carefully first.", seconds=60))
    )
    session = vscode(project, api_url=api.base_url)
    wb = session.workbench

    wb.open_file("calc.py")
    wb.select_all()
    wb.fix_this()
    wb.wait_until(lambda: "Let me think" in session.output_channel(), 30_000, "the streamed text")
    # No progress notification covers the work: the status bar item carries the run, and its
    # click cancels it.
    assert not any("KeSi" in toast for toast in wb.notification_texts())
    assert wb.status_tooltip("click to cancel")
    wb.page.locator(KESI_STATUS).click()

    wb.wait_until(lambda: COST.match(wb.status_text()) is not None, 30_000, "the run to stop")
    channel = session.output_channel()
    # Day 18: the interrupted request counts what arrived, and its bill says so.
    assert re.search(
        r"━━ cancelled · \(this run: 1 request\(s\), .*1 of them counted only up to the "
        r"interruption; session total \$\d+\.\d{4}\) ━━\n$",
        channel,
    ), channel
    assert (project / "calc.py").read_text() == BUGGY
    assert len(api.requests) == 1


def test_ask_with_the_diff_editor_review_and_a_session_grant(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path)
    api = scripted_api(
        read_then_edit(
            [
                reply("Done: `add` adds now.", expect={"last_tool_result_is_error": False}),
            ]
        )
    )
    session = vscode(project, api_url=api.base_url, settings={"kesi.review": "diffEditor"})
    wb = session.workbench

    # No file open: VS Code opens calc.py in the background to apply the edit, leaving it
    # unsaved, and kesi/saveDocuments must save it.
    wb.run_command("KeSi: Ask")
    wb.type_into_input_box("Why does test_add fail? Fix it.")

    # The proposal opens in a diff editor beside the file; the question in the KeSi panel
    # decides.
    question = words.question()
    panel = Panel(wb)
    panel.question(question)
    wb.page.locator(".tab", has_text="KeSi's proposal: calc.py").wait_for()  # the server's name
    assert (project / "calc.py").read_text() == BUGGY
    panel.answer(question, "Allow for this session")

    wb.wait_until(lambda: COST.match(wb.status_text()) is not None, 90_000, "the run to end")
    assert (project / "calc.py").read_text() == FIXED
    wb.wait_until(lambda: wb.unsaved_files() == 0, 10_000, "no unsaved documents")
    assert wb.page.locator(".tab", has_text="proposed edit").count() == 0
    first = api.requests[0].body["messages"][0]["content"]
    asked = first if isinstance(first, str) else " ".join(block["text"] for block in first)
    assert "Why does test_add fail? Fix it." in asked
    channel = session.output_channel()
    assert "━━ Ask · Why does test_add fail? Fix it. ━━" in channel
    assert "Done: `add` adds now." in channel

    # The session grant shows in KeSi: Show Permissions and goes with Revoke Permissions.
    wb.run_command("KeSi: Show Permissions")
    assert "Allowed files: calc.py" in wb.notification("Allowed files").inner_text()
    wb.run_command("KeSi: Revoke Permissions")
    wb.notification("(all grants for this session have been revoked)")  # the server's words
    wb.run_command("KeSi: Show Permissions")
    wb.wait_until(
        lambda: any("Allowed files: (none)" in text for text in wb.notification_texts()),
        15_000,
        "the grants to be gone",
    )
    # KeSi: Reset answers with the seed's /reset line (Day 10), as the server words it: the
    # fourth answer within a second, which VS Code may put in the notifications center only.
    wb.run_command("KeSi: Reset")
    reset = wb.notification_in_center("(history and file version records cleared; starting over)")
    assert reset.startswith("(history and file version records cleared; starting over)"), reset
