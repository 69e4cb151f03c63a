"""Background tasks in every LSP client KeSi is tested as (issue 28's "every LSP client
preset"): the model starts one, `kesi.tasks` lists it, `kesi.stopTask` stops it, and the client
hears of both in the way it can (`kesi/tasks` for KeSi's own clients, a log line for the
others); removing a workspace folder stops the tasks of that folder and no other's.

The server is the real one over pipes with the real agent and the real `anthropic` SDK against
the scripted Messages API; commands run in the real bubblewrap sandbox.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import Step, reply, script, tool_use
from tests.killed import GONE_SECONDS, usable
from tests.lsp.clients import ALLOW_ONCE, PRESETS, Editor, kesi_client
from tests.lsp.helpers import api_env, ask_and_wait
from tests.plugins.scripted_api import StartServer
from tests.processes import gone, processes_with, running, unique_sleep

pytestmark = pytest.mark.e2e

# Helix cannot answer a prompt and vim-lsp answers each with null: a rule lets the task's command
# (a plain `sleep`: a `# marker` comment would be a shell special the gate asks about) run.
OPTIONS = {"kesi": {"locale": "en", "sandbox": "bubblewrap", "permissions": {"allow": ["sleep *"]}}}


def start_steps(command: str, n: int = 0) -> tuple[Step, Step]:
    """The model starts `command` in the background, then says it runs."""
    start = tool_use("run_command", {"command": command, "background": True}, id=f"toolu_{n}")
    return reply("Starting it.", start), reply("It runs in the background.")


@pytest.fixture
def two_folders(tmp_path: Path) -> tuple[Path, Path]:
    folders = tmp_path / "alpha", tmp_path / "beta"
    for folder in folders:
        folder.mkdir()
        (folder / "README.md").write_text(f"# {folder.name}\n", encoding="utf-8")
    return folders


def streams(editor: Editor) -> bool:
    experimental = editor.capabilities.experimental
    kesi = experimental.get("kesi", {}) if isinstance(experimental, dict) else {}
    return bool(kesi.get("stream"))


def told(editor: Editor) -> list[str]:
    """The task lines the client was given: `kesi/tasks` lines, else its log."""
    if streams(editor):
        return [change["line"] for change in editor.task_changes()]
    return [line for line in editor.log_lines() if line.startswith("[KeSi] background task")]


@pytest.mark.parametrize("preset", list(PRESETS))
async def test_every_client_starts_lists_and_stops_a_task(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    usable("bubblewrap", project)
    marker = unique_sleep()
    command = f"sleep {marker}"
    api = scripted_api(script(*start_steps(command)))
    async with kesi_client(preset, [project], env=api_env(api), init_options=OPTIONS) as editor:
        editor.answer_prompt = lambda params: ALLOW_ONCE
        await ask_and_wait(editor, "Start it.")
        assert processes_with(marker)

        listed = await editor.command("kesi.tasks", {})
        (item,) = listed["tasks"]
        assert (item["taskId"], item["state"], item["command"]) == ("1", "running", command)
        assert listed["lines"] == [item["line"]]
        assert item["line"].startswith(f"#1 {command} · running · started ")

        stopped = await editor.command("kesi.stopTask", {"taskId": "1"})
        assert stopped == {"message": "Stopped task 1: stopped."}
        assert await gone(marker, GONE_SECONDS) == []
        await editor.sync()
        assert told(editor) == [
            f"[KeSi] background task 1 started: {command}",
            f"[KeSi] background task 1 stopped: {command}",
        ]
        after = await editor.command("kesi.tasks", {})
        assert [t["state"] for t in after["tasks"]] == ["stopped"]


@pytest.mark.slow
async def test_removing_a_folder_stops_its_tasks_and_only_its(
    two_folders: tuple[Path, Path], scripted_api: StartServer
) -> None:
    alpha, beta = two_folders
    usable("bubblewrap", alpha)
    kept, dropped = unique_sleep(), unique_sleep()
    api = scripted_api(script(*start_steps(f"sleep {kept}"), *start_steps(f"sleep {dropped}", 1)))
    async with kesi_client(
        "vscode+kesi", [alpha, beta], env=api_env(api), init_options=OPTIONS
    ) as editor:
        await ask_and_wait(editor, "Start one here.", alpha.as_uri())
        await ask_and_wait(editor, "Start one there.", beta.as_uri())
        assert await running(kept) and await running(dropped)
        removed = types.WorkspaceFolder(uri=beta.as_uri(), name=beta.name)
        editor.lsp.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(
                event=types.WorkspaceFoldersChangeEvent(added=[], removed=[removed])
            )
        )
        assert await gone(dropped, GONE_SECONDS + 3) == []  # SIGTERM, then 3 s at most
        ended = await editor.timeline.wait_for(
            lambda m, p: m == "kesi/tasks" and dropped in p["line"] and "stopped" in p["line"]
        )
        assert ended["line"] == f"[KeSi] background task 1 stopped: sleep {dropped}"
        assert ended["uri"] == beta.as_uri()
        assert processes_with(kept)  # the other folder's task runs on
        listed = await editor.command("kesi.tasks", {"uri": alpha.as_uri()})
        assert [t["state"] for t in listed["tasks"]] == ["running"]
        await editor.command("kesi.stopTask", {"taskId": "1", "uri": alpha.as_uri()})
        assert await gone(kept, GONE_SECONDS) == []
