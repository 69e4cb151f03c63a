"""The working loop's later parts in a real VS Code: a search by the search sub-agent shows
indented under its call in the **KeSi** channel with its bill; **KeSi: Compact Conversation**
shows the summary's notice and its own bill line; and a second VS Code on the same folder (the
editor restarted) begins its first run with the line saying the conversation continues."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.story import words
from tests.vscode.session import OpenVSCode

pytestmark = [pytest.mark.editor, pytest.mark.slow, pytest.mark.timeout(300)]

# A run's last line: done, no verdict (nothing was changed), and the seed's bill (Day 18).
DONE = re.compile(
    r"━━ done · \(this run: \d+ request\(s\), [^\n]*; session total \$\d+\.\d{4}\) ━━\n"
)
SUMMARY = "## Task\nFind where add is defined.\n## Facts\ncalc.py:1 defines add."


def _project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    notes = "".join(f"NOTE_{i} = {i}  # a line of notes about add\n" for i in range(200))
    (folder / "notes.py").write_text(notes)
    return folder


def test_a_search_a_summary_and_a_restarted_editor(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    project = _project(tmp_path)
    state = tmp_path / "state"  # both editors' servers keep conversations here
    api = scripted_api(
        script(
            reply("I'll read the notes.", tool_use("read_file", {"file_path": "notes.py"})),
            reply("Now a search.", tool_use("search_agent", {"task": "Where is add defined?"})),
            reply("Searching.", tool_use("grep", {"pattern": "def add"})),
            reply("add is defined at calc.py:1."),
            reply("It is defined at calc.py:1."),
            reply(SUMMARY),
            reply("We found where add is defined.", expect={"last_user_text_contains": "Where"}),
        )
    )
    session = vscode(project, api_url=api.base_url, env={"XDG_STATE_HOME": str(state)})
    wb = session.workbench
    wb.run_command("KeSi: Ask")
    wb.type_into_input_box("Where is add defined?")
    wb.wait_until(lambda: DONE.search(session.output_channel()) is not None, 90_000, "the run")
    channel = session.output_channel()
    assert words.tool("search_agent", "Where is add defined?") in channel
    assert "\n    Searching.\n" in channel
    assert f"\n{words.nested(words.tool('grep', 'def add'))}\n" in channel
    result = words.result("add is defined at calc.py:1.")
    assert f"\n{result}\n{words.bill_head('lsp.log.bill.search')}2 request" in channel

    wb.run_command("KeSi: Compact Conversation")
    wb.wait_until(
        lambda: words.bill_head("lsp.log.bill.compaction") in session.output_channel(),
        60_000,
        "summary",
    )
    wb.wait_until(lambda: len(DONE.findall(session.output_channel())) >= 2, 30_000, "its end")
    assert words.notice("Summarised ")[:-1] in session.output_channel()

    again = vscode(project, api_url=api.base_url, env={"XDG_STATE_HOME": str(state)})
    again.workbench.run_command("KeSi: Ask")
    again.workbench.type_into_input_box("Where were we?")
    again.workbench.wait_until(
        lambda: DONE.search(again.output_channel()) is not None, 90_000, "the resumed run"
    )
    story = again.output_channel()
    header = story.index("━━ Ask · Where were we? ━━\n")
    first_line = story[header:].splitlines()[1]
    continuing = words.notice("Continuing this folder's conversation from ")[:-1]
    assert first_line.startswith(continuing), story
    assert "We found where add is defined." in story
