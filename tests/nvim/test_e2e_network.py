"""The sandbox's network in Neovim (issue 27): curl in the real bubblewrap sandbox is refused a
host that is not on the allow-list, the question to widen it comes up in the editor
(vim.ui.select, the server's words), it is answered there, and the command then gets through.
`new.test` is a loopback web server mapped inside the proxy's resolver: no internet."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.network.servers import site
from tests.core.sandbox.conftest import bwrap
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import start_kesi
from tests.nvim.project import failing_project

__all__ = ["bwrap"]
pytestmark = [
    pytest.mark.editor,
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.usefixtures("bwrap"),
]
CURL = "curl -sS http://new.test/hello.txt"


def test_the_widen_question_is_answered_in_neovim_and_the_command_gets_through(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "hello.txt").write_text("hello from the loopback host\n")
    api = scripted_api(
        script(
            reply("Fetching.", tool_use("run_command", {"command": CURL})),
            reply(
                "Again.",
                tool_use("run_command", {"command": CURL}),
                expect={"last_tool_result_contains": "for this session"},
            ),
            reply("Fetched.", expect={"last_tool_result_contains": "hello from the loopback"}),
        )
    )
    with site(pages) as web:
        kesi = start_kesi(
            open_editor,
            project,
            api.base_url,
            env={"KESI_TEST_NETWORK_HOSTS": f"new.test=127.0.0.1:{web.port}"},
        )
        ed = kesi.ed
        ed.keys(":KeSiAsk fetch it<CR>")
        assert CURL in kesi.wait_select()["prompt"]
        ed.keys("3<CR>")  # the command: Allow for this session
        asked = kesi.wait_select(2)
        assert "Allow network access" in asked["prompt"] and "new.test" in asked["prompt"]
        assert asked["items"] == ["Deny", "Allow for this session", "Allow always"], asked
        ed.keys("2<CR>")  # the host: Allow for this session
        assert kesi.wait_finished()["status"] == "done"
        assert len(ed.selects()) == 2, "the second curl is not asked about"
    assert web.hits == ["/hello.txt"]  # only the second curl reached the server
