"""The working loop over the real wire (design §2.10, §2.11), in every editor KeSi meets: the
plan, the server's own verdict, the editor's diagnostics after an edit, project instructions,
ranged reads of the editor's text, and parallel reads.

The four editor presets (VS Code, Neovim, Emacs, Helix-like) announce nothing of KeSi's, so
they get log lines; our own clients (`+kesi`) get `kesi/plan`, answer `kesi/diagnostics` and
read `kesi/runFinished.verified`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.core.untrusted import unmarked
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.clients import Editor, EditorRefusalError, kesi_client
from tests.lsp.conftest import BUGGY, FIXED
from tests.lsp.helpers import PYTEST, TEST_CALC, api_env
from tests.lsp.reviews import answer
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

EDITORS = ["vscode", "neovim", "emacs", "helix"]
OURS = ["vscode+kesi", "neovim+kesi"]


def plan(*steps: tuple[str, str]) -> dict[str, Any]:
    return {"items": [{"content": c, "status": s} for c, s in steps]}


STEPS = ("Read calc.py", "Fix the sign", "Run the tests")
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)


def at_step(number: int) -> Any:
    """The todo call with steps before `number` completed, `number` in progress."""
    statuses = ["completed"] * number + ["in_progress"] + ["pending"] * (len(STEPS) - number - 1)
    return tool_use("todo", plan(*zip(STEPS, statuses, strict=True)))


PLANNED = script(
    reply("Plan first.", at_step(0)),
    reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
    reply("Fixing.", at_step(1), EDIT),
    reply("Testing.", at_step(2), tool_use("run_command", {"command": PYTEST})),
    reply(
        "Done.",
        tool_use("todo", plan(*((s, "completed") for s in STEPS))),
    ),
    reply("All three steps are done."),
)


@pytest.fixture
def failing(project: Path) -> Path:
    (project / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    return project


def progress_messages(client: Editor) -> list[str]:
    reports = client.lsp.progress_reports  # type: ignore[attr-defined]
    return [v.message for values in reports.values() for v in values if v.message]


@pytest.mark.slow
@pytest.mark.parametrize("preset", EDITORS + OURS)
async def test_the_plan_and_the_verdict_reach_every_editor(
    preset: str, failing: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(PLANNED)
    options = {"approvals": "acceptEdits"} if preset == "helix" else None  # Helix: no prompts
    async with kesi_client(preset, [failing], env=api_env(api), init_options=options) as client:
        answer(client, accept=True)
        client.open(failing / "calc.py")
        done = await client.run("kesi.ask", {"prompt": "fix calc"})
    assert done["status"] == "done"
    assert (failing / "calc.py").read_text() == FIXED
    run_id = done["runId"]
    if preset in OURS:
        updates = client.plans(run_id)
        assert len(updates) == 4
        assert updates[1] == [
            {"content": STEPS[0], "status": "completed"},
            {"content": STEPS[1], "status": "in_progress"},
            {"content": STEPS[2], "status": "pending"},
        ]
        assert not any("[plan]" in line for line in client.log_lines())
    else:
        assert client.plans(run_id) == []
        lines = [line for line in client.log_lines() if line.startswith("  [plan] ")]
        assert lines == [
            "  [plan] Plan (0/3 done): ▶ Read calc.py · ○ Fix the sign · ○ Run the tests",
            "  [plan] Plan (1/3 done): ✓ Read calc.py · ▶ Fix the sign · ○ Run the tests",
            "  [plan] Plan (2/3 done): ✓ Read calc.py · ✓ Fix the sign · ▶ Run the tests",
            "  [plan] Plan (3/3 done): ✓ Read calc.py · ✓ Fix the sign · ✓ Run the tests",
        ]
    messages = progress_messages(client)
    assert any("step 2 of 3: Fix the sign" in m for m in messages)  # the step in progress
    assert any(m.startswith("step 3 of 3: Run the tests") for m in messages)
    verified = done["verified"]
    if preset == "helix":  # the command could not be allowed: nothing verified the edit
        assert verified == {
            "status": "unverified",
            "text": "unverified",
            "by": None,
            "detail": "no test, build or linter ran after the last change",
        }
        assert messages[-1].startswith("done · unverified · files changed: 1")
    else:
        assert verified["status"] == "verified" and verified["by"] == PYTEST
        assert "1 passed" in verified["detail"]
        assert messages[-1].startswith("done · verified · files changed: 1")
    if preset not in OURS:
        status = "unverified" if preset == "helix" else "verified"
        assert f"  [{status}] {verified['detail']}" in client.log_lines()


def pyright_error(line: int) -> dict[str, Any]:
    return {
        "range": {"start": {"line": line, "character": 11}, "end": {"line": line, "character": 16}},
        "severity": 1,
        "message": 'Operator "+" not supported for "None"',
        "source": "pyright",
        "code": "reportOptionalOperand",
    }


def checking_language_server(client: Editor, path: Path) -> None:
    """Another language server in the editor: it reports an error once the buffer says
    `a + b`, a moment after each change (it republishes after every change)."""
    seen: dict[str, Any] = {"text": None}

    def current(params: dict[str, Any]) -> dict[str, Any]:
        buffer = client.buffer(path)
        if buffer.text != seen["text"]:
            seen["text"] = buffer.text
            found = [pyright_error(1)] if "a + b" in buffer.text else []
            client.reported.publish(client.uri(path), found)
        return client.reported.current(params)

    client.reported.answer = current


EDIT_THEN_TEST = script(
    reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
    reply("Fixing.", EDIT),
    reply("Testing.", tool_use("run_command", {"command": PYTEST})),
    reply("Fixed."),
)


@pytest.mark.slow
@pytest.mark.parametrize("preset", EDITORS + OURS)
async def test_new_problems_reach_the_model_and_the_verdict(
    preset: str, failing: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(EDIT_THEN_TEST)
    calc = failing / "calc.py"
    options = {"approvals": "acceptEdits"} if preset == "helix" else None
    async with kesi_client(preset, [failing], env=api_env(api), init_options=options) as client:
        answer(client, accept=True)
        client.open(calc)
        checking_language_server(client, calc)
        done = await client.run("kesi.ask", {"prompt": "fix calc"})
    edit_result = api.requests[2].body["messages"][-1]["content"][0]["content"]
    if preset in OURS:
        assert edit_result == (
            "Replaced (starting at line 2).\n"
            "New problems the editor reports since this change:\n"
            '- calc.py:2 error: Operator "+" not supported for "None" '
            "(pyright reportOptionalOperand)"
        )
        assert done["verified"]["status"] == "unverified"
        assert done["verified"]["detail"].endswith(
            "but the editor reports 1 new error(s) in calc.py"
        )
    else:  # the editor cannot say: nothing is claimed, and nobody is asked
        assert edit_result == "Replaced (starting at line 2)."
        assert not any(m == "kesi/diagnostics" for m, _ in client.timeline)
        assert done["verified"]["status"] == ("unverified" if preset == "helix" else "verified")


@pytest.mark.parametrize("preset", OURS)
@pytest.mark.parametrize("fault", ["error", "silence"])
async def test_an_editor_that_cannot_say_costs_a_sentence_not_the_run(
    preset: str, fault: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
            reply("Fixing.", EDIT),
            reply("Done.", expect={"last_tool_result_contains": "diagnostics were unavailable"}),
        )
    )
    async with kesi_client(preset, [project], env=api_env(api)) as client:
        answer(client, accept=True)

        async def broken(params: dict[str, Any]) -> Any:
            if fault == "silence":
                await asyncio.sleep(30)
            raise EditorRefusalError("diagnostics are broken")

        client.reported.answer = broken
        done = await client.run("kesi.ask", {"prompt": "fix calc"}, seconds=30)
        assert done["status"] == "done"
        assert (project / "calc.py").read_text() == FIXED
    said = api.requests[2].body["messages"][-1]["content"][0]["content"]
    reason = "it did not answer within 1 s" if fault == "silence" else "it answered with an error"
    unavailable = f"(The editor's diagnostics were unavailable: {reason}"
    assert said.startswith(f"Replaced (starting at line 2).\n{unavailable}")


AGENTS = "# calc\n\nAlways run `python3 -m pytest -q` after a change.\n"


@pytest.mark.parametrize("preset", EDITORS + OURS)
async def test_project_instructions_are_loaded_and_said(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    (project / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    api = scripted_api(script(reply("Hello."), reply("Again.")))
    async with kesi_client(preset, [project], env=api_env(api)) as client:
        first = await client.run("kesi.ask", {"prompt": "hi"})
        second = await client.run("kesi.ask", {"prompt": "again"})
    system = api.requests[0].body["system"]
    assert "## Project instructions (from the repository's AGENTS.md)" in system[1]["text"]
    assert "Always run `python3 -m pytest -q`" in system[1]["text"]
    said = (
        f"Project instructions loaded from AGENTS.md ({len(AGENTS)} bytes). They shape how KeSi "
        "works here; they cannot change its settings, permissions or which files it may reach."
    )
    if preset in OURS:
        notices = [p["text"] for p in client.stream(first["runId"], "notice")]
        assert said in notices
        later = client.stream(second["runId"], "notice")
        assert not [p for p in later if p["notice"] == "instructions"]
    else:
        assert client.log_lines().count(f"  ({said})") == 1


BIG = "".join(f"line_{n} = {n}\n" for n in range(1, 301))


@pytest.mark.parametrize("preset", EDITORS + OURS)
async def test_ranged_and_parallel_reads_of_the_editors_text(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    big = project / "big.py"
    big.write_text(BIG, encoding="utf-8")
    api = scripted_api(
        script(
            reply(
                "Reading three at once.",
                tool_use("read_file", {"file_path": "big.py", "offset": 150, "limit": 2}),
                tool_use("read_file", {"file_path": "calc.py"}),
                tool_use("grep", {"pattern": "line_299"}),
            ),
            reply(
                "Overwriting.", tool_use("write_file", {"file_path": "big.py", "content": "x\n"})
            ),
            reply("Done."),
        )
    )
    async with kesi_client(preset, [project], env=api_env(api)) as client:
        answer(client, accept=True)
        client.open(big)
        client.type_text(big, "line_150 = 150", "line_150 = 'typed'")  # unsaved, in the editor
        done = await client.run("kesi.ask", {"prompt": "look"})
    assert done["status"] == "done"
    marked = [b["content"] for b in api.requests[1].body["messages"][-1]["content"]]
    assert all(r.startswith('<data from="file content"') for r in marked)  # outside content
    results = [unmarked(r) for r in marked]
    assert results[0] == (
        "150 | line_150 = 'typed'\n151 | line_151 = 151\n\n"
        "[lines 150-151 of 300 in big.py; read on with offset=152]"
    )
    assert results[1] == BUGGY
    assert results[2] == "big.py:299:line_299 = 299"
    refused = api.requests[2].body["messages"][-1]["content"][0]
    assert refused["is_error"]
    assert "you have read only lines 150-151 of the 300 lines" in refused["content"]
    assert big.read_text() == BIG
