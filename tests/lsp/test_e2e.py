"""KeSi end to end: the real server and agent loop, the real `anthropic` SDK over real HTTP to
the scripted Messages API, and a client that behaves like VS Code, Neovim, Emacs or Helix.
The headline scenario runs `kesi-lsp` as a subprocess over stdio; the other cases run the same
server in this process over pipes (tests/lsp/servers.py).

The headline scenario is the user's: a test fails, "KeSi: fix this" on the broken line, the
agent reads the file, proposes an edit the user reviews and accepts, asks to run pytest, the
user allows it, the test passes, and the run ends with its bill.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.clients import ALLOW_ONCE, DENY, Editor, kesi_client
from tests.lsp.conftest import BUGGY, FIXED
from tests.lsp.helpers import FAILURE, PYTEST, TEST_CALC, api_env, fix_this_args, wait_for
from tests.lsp.reviews import REVIEW_PATHS, answer, assert_review_path
from tests.lsp.servers import Subprocess
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

DONE_TEXT = "Fixed: add now adds, and the test passes."
ACCEPTING = ["vscode", "vscode+kesi", "neovim", "neovim+kesi", "emacs"]


@pytest.fixture
def failing_project(project: Path) -> Path:
    (project / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    return project


FIX_SCRIPT = script(
    reply(
        "Let me read calc.py.",
        tool_use("read_file", {"file_path": "calc.py"}),
        expect={"last_user_text_contains": "return a - b", "tools_include": ["edit_file"]},
        label="read",
    ),
    reply(
        "It subtracts. ",
        tool_use(
            "edit_file",
            {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
        ),
        expect={"last_tool_result_contains": "return a - b"},
        label="edit",
    ),
    reply(
        "Now the test.",
        tool_use("run_command", {"command": PYTEST}),
        expect={"last_tool_result_is_error": False},
        label="pytest",
    ),
    reply(
        "Fixed: add now adds, and the test passes.",
        expect={"last_tool_result_contains": "1 passed"},
        label="done",
    ),
)


def check_stream_order(client: Editor, run_id: str, project: Path) -> None:
    """Text deltas in order and before runFinished; progress begin/report/end well-formed."""
    finished = client.finished(run_id)
    finished_at = next(
        i
        for i, (m, p) in enumerate(client.timeline)
        if m == "kesi/runFinished" and p["runId"] == run_id
    )
    if client.preset.name.endswith("+kesi"):
        texts = [
            (i, p["text"])
            for i, (m, p) in enumerate(client.timeline)
            if m == "kesi/stream" and p["kind"] == "text"
        ]
        assert all(i < finished_at for i, _ in texts)
        expected = ["Let me read calc.py.", "It subtracts. ", "Now the test.", DONE_TEXT]
        assert "".join(t for _, t in texts) == "".join(expected)
        assert len(texts) > 4  # really streamed in pieces
        kinds = [p["kind"] for m, p in client.timeline if m == "kesi/stream"]
        assert kinds.count("toolStart") == kinds.count("toolEnd") == 3
        # Day 15's start-up lines first: where KeSi works, and what confines its commands.
        first, second = client.stream(run_id)[:2]
        assert first["kind"] == "notice" and first["notice"] == "workspace"
        assert first["text"] == f"Working directory: {project.resolve()}"
        assert second["kind"] == "notice" and second["notice"] == "sandbox"
        assert second["text"] == "Command sandbox: on (/usr/bin/bwrap)"
        assert client.log_lines() == []  # the story is in kesi/stream only
    else:
        lines = client.log_lines()
        assert lines[0] == f"  Working directory: {project.resolve()}"
        assert lines[1] == "  Command sandbox: on (/usr/bin/bwrap)"
        assert lines[2] == "KeSi > Let me read calc.py."
        story = "\n".join(lines)
        assert story.index("KeSi > Let me read calc.py.") < story.index("[tool] read_file")
        assert story.index("[tool] edit_file") < story.index("[tool] run_command")
        assert f"KeSi > {DONE_TEXT}" in story
        assert lines[-1].startswith("  (this run: 4 request(s), input ")
        assert lines[-1].endswith(f"; session total ${finished['sessionUsage']['costUsd']:.4f})")
    reports = list(client.lsp.progress_reports.values())
    assert len(reports) == 1
    values = reports[0]
    assert isinstance(values[0], types.WorkDoneProgressBegin) and values[0].cancellable
    assert isinstance(values[-1], types.WorkDoneProgressEnd)
    assert all(isinstance(v, types.WorkDoneProgressReport) for v in values[1:-1])
    messages = [v.message for v in values[1:-1]]
    assert any(m and m.startswith(f"working · run_command: {PYTEST} · $") for m in messages)
    assert not any(m and "turn" in m for m in messages)  # round trips stay in tooltips
    assert values[-1].message is not None and values[-1].message.startswith(
        "done · verified · files changed: 1 · $"
    )
    progress_end = max(i for i, (m, _) in enumerate(client.timeline) if m == "$/progress")
    assert progress_end < finished_at


@pytest.mark.slow
@pytest.mark.parametrize("preset", ACCEPTING)
@pytest.mark.subprocess
async def test_fix_this_end_to_end(
    preset: str, failing_project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(FIX_SCRIPT)
    calc = failing_project / "calc.py"
    server = Subprocess()  # the headline story through the real `python -m kesi_lsp`
    async with kesi_client(preset, [failing_project], env=api_env(api), server=server) as client:
        answer(client, accept=True)
        client.open(calc)
        done = await client.run("kesi.fixThis", fix_this_args(failing_project))
        assert done["status"] == "done", done
        assert done["text"] == DONE_TEXT
        assert done["edits"] == ["calc.py"]
        assert done["usage"]["requests"] == 4 and done["usage"]["costUsd"] > 0
        # pytest passed after the edit: the server itself says the run is verified.
        assert done["verified"]["status"] == "verified" and done["verified"]["by"] == PYTEST
        assert done["verified"]["detail"].startswith(f"{PYTEST} passed after the last change")
        assert calc.read_text() == FIXED and client.buffer(calc).text == FIXED
        # The edit went through this editor's review; pytest through one permission prompt.
        edit_prompts = [p for p in client.prompts if "calc.py" in p.message]
        command_prompts = [p for p in client.prompts if PYTEST in p.message]
        assert len(command_prompts) == 1
        assert command_prompts[0].message.startswith(
            f"[Permission needed] Run command: {PYTEST}\nWhy it asks: "
        )
        client.prompts[:] = edit_prompts
        assert_review_path(client, REVIEW_PATHS[preset])
        check_stream_order(client, done["runId"], failing_project)
        # The task the model got: path, numbered lines and the diagnostic.
        task = api.requests[0].body["messages"][0]["content"]
        task_text = task if isinstance(task, str) else task[-1]["text"]
        assert "calc.py, lines 1-2" in task_text and "2 |     return a - b" in task_text
        assert FAILURE in task_text and "[pytest]" in task_text
        # The bill is the session's too.
        cost = await client.command("kesi.cost", {"uri": calc.as_uri()})
        assert cost["requests"] == 4 and cost["costUsd"] == done["usage"]["costUsd"]


async def test_fix_this_in_helix_is_refused_without_prompts(
    failing_project: Path, scripted_api: StartServer
) -> None:
    """Helix cannot show prompts: the edit is denied, the model is told, nothing changes."""
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(
                tool_use(
                    "edit_file",
                    {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
                )
            ),
            reply(
                "I could not change the file.",
                expect={"last_tool_result_contains": "the user refused to modify this file"},
            ),
        )
    )
    calc = failing_project / "calc.py"
    async with kesi_client("helix", [failing_project], env=api_env(api)) as client:
        client.open(calc)
        done = await client.run("kesi.fixThis", fix_this_args(failing_project))
        assert done["status"] == "done" and done["edits"] == []
        assert calc.read_text() == BUGGY and client.buffer(calc).text == BUGGY
        assert not client.applied
        warnings = client.shown(types.MessageType.Warning)
        assert len(warnings) == 1 and "cannot show KeSi's permission prompts" in warnings[0]


@pytest.mark.parametrize("preset", ["vscode", "neovim", "emacs", "neovim+kesi"])
async def test_rejected_edit_reaches_the_model(
    preset: str, failing_project: Path, scripted_api: StartServer
) -> None:
    """I3 through the real loop: every review path's "no" is the seed's refusal."""
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(
                tool_use(
                    "edit_file",
                    {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
                )
            ),
            reply(
                "Understood, I will leave it.",
                expect={
                    "last_tool_result_contains": "the user refused to modify this file",
                    "last_tool_result_is_error": True,
                },
            ),
        )
    )
    calc = failing_project / "calc.py"
    async with kesi_client(preset, [failing_project], env=api_env(api)) as client:
        answer(client, accept=False)
        client.open(calc)
        done = await client.run("kesi.fixThis", fix_this_args(failing_project))
        assert done["status"] == "done" and done["edits"] == []
        assert calc.read_text() == BUGGY and client.buffer(calc).text == BUGGY
        assert client.buffer(calc).undo == []


def _edit_after_thinking(expect: str) -> object:
    return script(
        reply(tool_use("read_file", {"file_path": "calc.py"})),
        reply(
            tool_use(
                "edit_file",
                {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
            ),
            timing={"headers_delay": 2.0},  # the user types while the model thinks
        ),
        reply("Noted.", expect={"last_tool_result_contains": expect}),
    )


@pytest.mark.slow  # the model thinks for 2 s
async def test_user_typing_elsewhere_after_the_read_does_not_block_the_edit(
    failing_project: Path, scripted_api: StartServer
) -> None:
    """I4 and Day 9 through the real loop: the user types on another line after read_file;
    edit_file lands on the buffer as it is now, and the user's text survives."""
    api = scripted_api(_edit_after_thinking("Replaced (starting at line 2)."))
    calc = failing_project / "calc.py"
    async with kesi_client("neovim+kesi", [failing_project], env=api_env(api)) as client:
        answer(client, accept=True)
        client.open(calc)
        started = await client.command("kesi.fixThis", fix_this_args(failing_project))
        await wait_for(lambda: client.stream(started["runId"], "toolEnd"))
        client.type_text(calc, "def add(a, b):", "def add(a, b):  # typed by the user")
        await client.sync()
        done = await client.wait_finished(started["runId"])
        assert done["status"] == "done" and done["edits"] == ["calc.py"]
        both = FIXED.replace("def add(a, b):", "def add(a, b):  # typed by the user")
        assert client.buffer(calc).text == both and calc.read_text() == both


@pytest.mark.slow  # the model thinks for 2 s
async def test_user_typing_in_the_replaced_text_is_refused_as_stale(
    failing_project: Path, scripted_api: StartServer
) -> None:
    """I4: the user's typing after read_file touched the text edit_file replaces: refused, the
    model told to read again, the user's text kept and nothing saved."""
    api = scripted_api(_edit_after_thinking("read it again with read_file"))
    calc = failing_project / "calc.py"
    async with kesi_client("neovim+kesi", [failing_project], env=api_env(api)) as client:
        answer(client, accept=True)
        client.open(calc)
        started = await client.command("kesi.fixThis", fix_this_args(failing_project))
        await wait_for(lambda: client.stream(started["runId"], "toolEnd"))
        client.type_text(calc, "a - b", "a - b - 0")
        await client.sync()
        done = await client.wait_finished(started["runId"])
        assert done["status"] == "done" and done["edits"] == []
        mine = BUGGY.replace("a - b", "a - b - 0")
        assert client.buffer(calc).text == mine and calc.read_text() == BUGGY
        assert not client.reviews and not client.applied


async def test_deny_listed_command_never_prompts(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": "rm -rf ~"})),
            reply(
                "That was blocked.",
                expect={"last_tool_result_contains": "blocked by the safety rules"},
            ),
        )
    )
    async with kesi_client("neovim", [project], env=api_env(api)) as client:
        client.answer_prompt = lambda params: ALLOW_ONCE  # a "yes" would not matter anyway
        done = await client.run("kesi.ask", {"prompt": "clean my home"})
        assert done["status"] == "done"
        assert client.prompts == []


async def test_denied_command_does_not_run(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": "touch made-by-kesi"})),
            reply(
                "You said no.",
                expect={"last_tool_result_contains": "the user refused to run this command"},
            ),
        )
    )
    async with kesi_client("emacs", [project], env=api_env(api)) as client:
        client.answer_prompt = lambda params: DENY
        done = await client.run("kesi.ask", {"prompt": "make a file"})
        assert done["status"] == "done"
        assert len(client.prompts) == 1 and "touch made-by-kesi" in client.prompts[0].message
        assert not (project / "made-by-kesi").exists()


async def test_the_model_is_told_which_files_are_unsaved(
    failing_project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Noted.")))
    calc = failing_project / "calc.py"
    async with kesi_client("neovim", [failing_project], env=api_env(api)) as client:
        client.open(calc)
        client.open(failing_project / "test_calc.py")
        client.type_text(calc, "def add", "def add_numbers")
        done = await client.run("kesi.ask", {"prompt": "what changed?"})
        assert done["status"] == "done"
    environment = api.requests[0].body["system"][-1]["text"]
    assert "Files with unsaved changes in the editor: calc.py." in environment
    assert "shell commands (tests, for example) see the version saved on disk" in environment
    assert "test_calc.py" not in environment.split("unsaved changes in the editor:")[1]


async def test_the_unsaved_list_follows_saves_and_commands(
    failing_project: Path, scripted_api: StartServer
) -> None:
    """The list is kept without reading the disk on the event loop: a save clears a file
    from it; a command that changes the disk under a clean buffer does not make it "unsaved"
    (the editor shows an older text, which delivery refuses to save over)."""
    append = "python3 -c \"open('test_calc.py', 'a').write('# more\\n')\""
    api = scripted_api(
        script(
            reply("Noted."),
            reply(tool_use("run_command", {"command": append})),
            reply("Appended."),
            reply("Seen."),
        )
    )
    calc, test_calc = failing_project / "calc.py", failing_project / "test_calc.py"
    unsaved = "Files with unsaved changes in the editor:"
    async with kesi_client("neovim", [failing_project], env=api_env(api)) as client:
        client.answer_prompt = lambda params: ALLOW_ONCE
        client.open(calc)
        client.open(test_calc)
        client.type_text(calc, "def add", "def add_numbers")
        await client.run("kesi.ask", {"prompt": "first"})
        client.save(calc)
        await client.run("kesi.ask", {"prompt": "second"})
        await client.run("kesi.ask", {"prompt": "third"})
    environments = [request.body["system"][-1]["text"] for request in api.requests]
    assert f"{unsaved} calc.py." in environments[0]
    assert unsaved not in environments[1], "saved: the disk holds the buffer now"
    assert unsaved not in environments[3], "a clean buffer the command outdated is not unsaved"


async def test_reset_starts_a_fresh_conversation(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply("It subtracts."),
            reply("Go on from there.", expect={"message_count": 5}),
            reply("A fresh start.", expect={"message_count": 1}),
        )
    )
    async with kesi_client("neovim+kesi", [project], env=api_env(api)) as client:
        for prompt in ("what does add do?", "and then?"):
            assert (await client.run("kesi.ask", {"prompt": prompt}))["status"] == "done"
        reset = await client.command("kesi.reset", {})
        assert reset == {"message": "(history and file version records cleared; starting over)"}
        assert (await client.run("kesi.ask", {"prompt": "again"}))["status"] == "done"
        cost = await client.command("kesi.cost", {})
        assert cost["requests"] == 4  # /reset keeps the bill (seed)


@pytest.mark.parametrize("preset", ["neovim", "neovim+kesi"])
async def test_running_without_a_sandbox_is_said_out_loud(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Hi."), reply("Hi again.")))
    init = {"sandbox": "off"}
    async with kesi_client(preset, [project], env=api_env(api), init_options=init) as client:
        first = await client.run("kesi.ask", {"prompt": "hi"})
        second = await client.run("kesi.ask", {"prompt": "hi"})
        status = "Command sandbox: off (setting kesi.sandbox = off)"
        (warning,) = client.shown(types.MessageType.Warning)  # once per folder, not per run
        assert warning.startswith(f"KeSi in project: {status}. Shell commands")
        assert not client.stream(second["runId"], "notice")  # said once per folder
        if preset.endswith("+kesi"):
            (_, notice) = client.stream(first["runId"], "notice")  # after the working directory
            assert notice == {
                "runId": first["runId"],
                "kind": "notice",
                "notice": "sandbox",
                "text": status,
                "line": f"  {status}",  # the log's line, as the seed prints it (Day 15)
                "lines": [f"  {status}"],
            }
        else:
            assert client.log_lines().count(f"  {status}") == 1
