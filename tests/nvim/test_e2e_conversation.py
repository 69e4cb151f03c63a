"""The working loop's later parts in a real Neovim with the real server: a search sub-agent's
lines indented in `kesi://output` with its bill, `:KeSiCompact` with the summary's notice and
bill line, and the next Neovim on the same project continuing the conversation, saying so in
its first run's first line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core.persistence import ConversationStore
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import start_kesi
from tests.nvim.project import failing_project
from tests.story import words

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

SUMMARY = "## Task\nFind where add is defined.\n## Facts\ncalc.py:1 defines add."


def _notes(project: Path) -> None:
    body = "".join(f"NOTE_{i} = {i}  # a line of notes about add\n" for i in range(200))
    (project / "notes.py").write_text(body, encoding="utf-8")


def test_a_search_a_summary_and_the_next_neovim_continuing(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    _notes(project)
    state = tmp_path / "state"  # both Neovims' servers share the user's state directory
    api = scripted_api(
        script(
            reply("I'll read the notes.", tool_use("read_file", {"file_path": "notes.py"})),
            reply(
                "Now a search.",
                tool_use("search_agent", {"task": "Where is add defined?"}, id="toolu_s"),
            ),
            reply("Searching.", tool_use("grep", {"pattern": "def add"})),
            reply("add is defined at calc.py:1."),
            reply("add is defined at calc.py:1."),
            reply(SUMMARY),
            reply("We found where add is defined.", expect={"last_user_text_contains": "Where"}),
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url, env={"XDG_STATE_HOME": str(state)})
    ed = kesi.ed
    ed.keys(":KeSiAsk where is add defined?<CR>")
    assert kesi.wait_finished()["status"] == "done"
    lines = ed.output()
    start = lines.index(words.tool("search_agent", "Where is add defined?"))
    assert lines[start + 1] == "    Searching."
    assert lines[start + 2] == words.nested(words.tool("grep", "def add"))
    assert lines[start + 3].startswith(words.nested(words.result("")))
    assert lines[start + 4] == "    add is defined at calc.py:1."  # its conclusion, as it streamed
    assert lines[start + 5] == words.result("add is defined at calc.py:1.")  # the main model's
    assert lines[start + 6].startswith(words.bill_head("lsp.log.bill.search") + "2 request")

    ed.keys(":KeSiCompact<CR>")
    assert kesi.wait_finished(count=2)["status"] == "done"
    shown = kesi.wait_output(words.bill_head("lsp.log.bill.compaction"))
    assert any(line.startswith(words.notice("Summarised ")[:-1]) for line in shown)
    saved = ConversationStore(state / "kesi" / "conversations").file_for(project.resolve())
    ed.wait_until(lambda: SUMMARY.splitlines()[1] in saved.read_text(), "the summary saved")

    again = start_kesi(open_editor, project, api.base_url, env={"XDG_STATE_HOME": str(state)})
    again.ed.keys(":KeSiAsk Where were we?<CR>")
    assert again.wait_finished()["status"] == "done"
    output = again.ed.output()
    assert output[1].startswith(words.notice("Continuing this folder's conversation from ")[:-1])
    assert dict(again.ed.output_highlights())[output[1]] == "KeSiInfo"
