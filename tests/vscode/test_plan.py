"""The working loop in a real VS Code (design §2.10): the **KeSi Plan** view while the run
lives and the step in progress in the progress notification; a real language server's new
problem (VS Code's own JSON support) told to the model; the server's verdict in the status bar
and as the run's last line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.story import words
from tests.vscode.panel import Panel
from tests.vscode.project import COMMAND, COST, FIXED, failing_project
from tests.vscode.session import OpenVSCode

pytestmark = [pytest.mark.editor, pytest.mark.slow, pytest.mark.timeout(300)]

STEPS = ("Read calc.py", "Fix the sign", "Run the tests")


def at_step(number: int) -> object:
    statuses = ["completed"] * number + ["in_progress"] + ["pending"] * (len(STEPS) - number - 1)
    return tool_use(
        "todo",
        {"items": [{"content": c, "status": s} for c, s in zip(STEPS, statuses, strict=False)]},
    )


def test_the_plan_view_the_step_in_progress_and_the_verdict(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path)
    api = scripted_api(
        script(
            reply("Planning.", at_step(0), tool_use("read_file", {"file_path": "calc.py"})),
            reply(
                "Fixing.",
                at_step(1),
                tool_use(
                    "edit_file",
                    {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
                ),
            ),
            reply("Testing.", at_step(2), tool_use("run_command", {"command": COMMAND})),
            reply(
                "Done.",
                tool_use("todo", {"items": [{"content": c, "status": "completed"} for c in STEPS]}),
            ),
            reply("Fixed, and the tests pass."),
        )
    )
    session = vscode(project, api_url=api.base_url, settings={"kesi.review": "refactorPreview"})
    wb = session.workbench
    wb.open_file("calc.py")
    wb.select_all()
    wb.fix_this()

    # While the edit waits in the Refactor Preview, the plan shows step 2 in progress.
    wb.refactor_preview()
    wb.open_plan()  # a collapsed pane stays collapsed through the reveal on the first plan
    in_progress = ["✓ Read calc.py", "▶ Fix the sign", "○ Run the tests"]
    # The tree redraws on its own time: the preview can be up a moment before the view is.
    wb.wait_until(
        lambda: wb.plan_rows() == in_progress and wb.plan_description() == words.plan_title(1, 3),
        30_000,
        "the plan at step 2",
    )
    wb.wait_until(
        lambda: "step 2 of 3: Fix the sign" in wb.status_text(),
        30_000,
        "the status bar naming step 2",
    )
    wb.tick_preview_file("calc.py")
    wb.apply_preview()
    wb.wait_preview_closed()
    Panel(wb).answer(COMMAND, "Allow once")

    wb.wait_until(lambda: COST.match(wb.status_text()) is not None, 90_000, "the run to end")
    assert (project / "calc.py").read_text() == FIXED
    assert wb.status_text().startswith("KeSi · verified $")
    wb.wait_until(  # the final plan stays until the next run, and says the run ended
        lambda: (
            wb.plan_rows() == [f"✓ {step}" for step in STEPS]
            and wb.plan_description() == f"{words.plan_title(3, 3)} · run ended"
        ),
        30_000,
        "the final plan",
    )
    channel = session.output_channel()
    final = f"{words.plan_title(3, 3)}\n  ✓ Read calc.py\n  ✓ Fix the sign\n  ✓ Run the tests\n"
    assert final in channel
    assert words.verdict(f"{COMMAND} passed after the last change") in channel
    # The run's last line: the status, the verdict, and the seed's bill (Day 18) of five
    # requests, whose session total is what the status bar shows.
    last = re.search(
        r"━━ done · verified · \(this run: 5 request\(s\), [^\n]*\$\d+\.\d{4}; "
        r"session total \$(\d+\.\d{4})\) ━━\n$",
        channel,
    )
    assert last, channel
    shown = COST.match(wb.status_text())
    assert shown is not None and shown.group(1) == last.group(1)


def test_a_language_servers_new_error_reaches_the_model(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    """VS Code's built-in JSON support is the other language server here."""
    project = tmp_path / "project"
    project.mkdir()
    settings = project / "settings.json"
    settings.write_text('{\n  "rate": 1,\n  "name": "calc"\n}\n')
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "settings.json"})),
            reply(
                "Changing the rate.",
                tool_use(
                    "edit_file",
                    {
                        "file_path": "settings.json",
                        "old_string": '"rate": 1,',
                        "new_string": '"rate": 2',
                    },
                ),
            ),
            reply("I see the editor's error; the change is unverified."),
        )
    )
    session = vscode(project, api_url=api.base_url, settings={"kesi.approvals": "acceptEdits"})
    wb = session.workbench
    wb.open_file("settings.json")
    wb.run_command("KeSi: Ask")
    wb.type_into_input_box("set the rate to 2")

    wb.wait_until(lambda: len(api.requests) == 3, 90_000, "the edit's result to reach the model")
    said = api.requests[2].body["messages"][-1]["content"][0]["content"]
    assert said.startswith("Replaced (starting at line 2).\nNew problems the editor reports")
    assert re.search(r"- settings\.json:\d+ error: .+\(json", said), said
    wb.wait_until(lambda: COST.match(wb.status_text()) is not None, 60_000, "the run to end")
    assert wb.status_text().startswith("KeSi · unverified $")
