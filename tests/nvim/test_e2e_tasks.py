"""Background tasks in a real Neovim (issue 28): the model starts one, :KeSiTasks lists it in
the server's words, :KeSiTaskStop stops it, and the output split says when it started and
ended; nothing of it is left running."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import start_kesi
from tests.nvim.project import failing_project
from tests.processes import processes_with

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]


def test_a_task_is_started_listed_and_stopped(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    marker = f"kesi-nvim-{secrets.token_hex(4)}"
    command = f"sleep 300 # {marker}"
    api = scripted_api(
        script(
            reply(
                "Starting it.", tool_use("run_command", {"command": command, "background": True})
            ),
            reply("It runs in the background."),
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    ed.keys(":KeSiAsk start a long job<CR>")
    kesi.wait_select()
    ed.keys("2<CR>")  # Allow once (Deny comes first)
    assert kesi.wait_finished()["status"] == "done"
    assert processes_with(marker)
    kesi.wait_output(f"[KeSi] background task 1 started: {command}")

    ed.keys(":KeSiTasks<CR>")
    shown = kesi.notified(f"#1 {command} · running · started ")
    assert "No background tasks" not in shown

    ed.keys(":KeSiTaskStop<CR>")  # no id: pick among the running ones
    kesi.wait_select(2)
    ed.keys("1<CR>")
    kesi.notified("Stopped task 1: stopped.")
    assert processes_with(marker) == []  # the answer comes once the group is gone
    kesi.wait_output(f"[KeSi] background task 1 stopped: {command}")

    ed.keys(":KeSiTaskStop 1<CR>")
    kesi.notified("Task 1 had already ended (stopped).")
    ed.keys(":KeSiTaskStop 7<CR>")
    kesi.notified("There is no background task 7 in this folder.")
