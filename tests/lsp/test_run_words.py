"""What a user reads about a run, over the real LSP wire (issue 32): the step, not the model's
round trip; the plan once per change, not four times; the start-up lines once per session;
what "Allow for this session" covers; the lightbulb only where it helps for KeSi's own clients;
no false "ignoring kesi.approvals" warning for a folder without a settings file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from kesi_lsp.catalog import text
from kesi_lsp.scripted_api import reply, script, tool_use
from kesi_lsp.testing import BUTTONS
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

STEPS = ("Read it", "Fix it", "Check it")


def _todo(done: int) -> Any:
    statuses = ["completed"] * done + ["in_progress"] + ["pending"] * 3
    items = [{"content": c, "status": s} for c, s in zip(STEPS, statuses, strict=False)]
    return tool_use("todo", {"items": items})


def _planned() -> Any:
    return script(
        reply("Planning.", _todo(0)),
        reply("Reading.", _todo(1), tool_use("read_file", {"file_path": "calc.py"})),
        reply("Done."),
    )


def _progress(client: Any) -> list[str]:
    return [
        value["message"]
        for method, params in client.timeline
        if method == types.PROGRESS
        for value in [params.value if hasattr(params, "value") else params["value"]]
        if isinstance(value, dict) and value.get("message")
    ]


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_progress_names_the_step_and_keeps_turns_for_the_tooltip(
    locale: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(_planned())
    options = {"locale": locale, "sandbox": "off"}
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=options) as c:
        done = await c.run("kesi.ask", {"prompt": "plan"})
    assert done["status"] == "done"
    messages = _progress(c)
    step = {"en": "step 2 of 3: Fix it", "zh-TW": "第 2 步（共 3 步）：Fix it"}[locale]
    assert any(m.startswith(step) for m in messages), messages
    turn = {"en": "turn", "zh-TW": "輪"}[locale]
    assert not any(turn in m for m in messages), messages  # round trips are not progress
    assert not any("todo" in m for m in messages), "the plan tool is the step, not a call"
    (first, *_) = c.stream(done["runId"], "turn")
    assert first["label"] == text("lsp.progress.turn", locale, turn=1, max=20)
    words = {"en": "turn 1 of at most 20", "zh-TW": "第 1 輪（最多 20 輪）"}
    assert first["label"] == words[locale]


async def test_the_plan_is_told_once_per_change_not_as_a_call_and_a_result(
    tmp_path: Path, scripted_api: StartServer
) -> None:
    """A log-only editor reads each plan once (`[plan] …`); our client's story has no line
    for the plan tool at all (its plan view shows the plan, updated in place)."""
    for preset in ("emacs", "neovim+kesi"):
        project = tmp_path / preset
        project.mkdir()
        (project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
        api = scripted_api(_planned())
        options = {"sandbox": "off"}
        async with kesi_client(preset, [project], env=api_env(api), init_options=options) as c:
            done = await c.run("kesi.ask", {"prompt": "plan"})
        logged = [line for line in c.log_lines() if "Read it" in line]
        story = [
            line
            for event in c.stream(done["runId"])
            if event["kind"] != "text"
            for line in event["lines"]
        ]
        if preset == "emacs":
            assert len(logged) == 2, logged  # two plans, each said once
            assert all(line.startswith("  [plan] ") for line in logged), logged
            assert not any("[tool] todo" in line for line in c.log_lines())
        else:
            assert not any("todo" in line or "Read it" in line for line in story), story
            assert len([m for m, _ in c.timeline if m == "kesi/plan"]) == 2


async def test_start_up_lines_are_said_once_per_session(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("One."), reply("Two.")))
    options = {"sandbox": "off"}
    async with kesi_client("neovim+kesi", [project], env=api_env(api), init_options=options) as c:
        first = await c.run("kesi.ask", {"prompt": "one"})
        second = await c.run("kesi.ask", {"prompt": "two"})
        warnings = c.shown(types.MessageType.Warning)
    notices = [[e["notice"] for e in c.stream(r["runId"], "notice")] for r in (first, second)]
    assert notices[0][:2] == ["workspace", "sandbox"], notices
    assert "workspace" not in notices[1] and "sandbox" not in notices[1], notices
    assert len([w for w in warnings if "sandbox" in w.lower()]) == 1, warnings


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_the_question_says_what_allow_for_this_session_covers(
    locale: str, project: Path, scripted_api: StartServer
) -> None:
    edit = {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"}
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": "touch made.txt"})),
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(tool_use("edit_file", edit)),
            reply("Done."),
        )
    )
    options = {"locale": locale, "sandbox": "off"}
    session = BUTTONS[locale][2]
    async with kesi_client("neovim", [project], env=api_env(api), init_options=options) as c:
        c.answer_prompt = lambda params: BUTTONS[locale][1]
        done = await c.run("kesi.ask", {"prompt": "go"})
    assert done["status"] == "done"
    command, edit_prompt = (p.message for p in c.prompts)
    words = {
        "en": (
            f'"{session}" runs this exact command without asking until the session ends',
            f'"{session}" lets KeSi change calc.py without asking until the session ends',
        ),
        "zh-TW": ("一字不差的這條指令不再問你", "KeSi 改 calc.py 不再問你"),
    }[locale]
    assert words[0] in command
    assert words[1] not in edit_prompt  # a minibuffer's rows are the diff's; reviews carry it
    assert command.endswith(text("lsp.prompt.question", locale))


async def test_our_review_carries_the_scope_of_the_session_answer(
    project: Path, scripted_api: StartServer
) -> None:
    edit = {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"}
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(tool_use("edit_file", edit)),
            reply("Done."),
        )
    )
    async with kesi_client("neovim+kesi", [project], env=api_env(api)) as c:
        c.answer_review = lambda params: "reject"
        await c.run("kesi.ask", {"prompt": "go"})
    (review,) = c.reviews
    assert review["scope"] == text(
        "lsp.prompt.scope_edit",
        "en",
        answer=text("permissions.answer.session", "en"),
        path="calc.py",
    )


async def _titles(
    client: Any, path: Path, span: types.Range, problems: bool, asked: bool = False
) -> list[str]:
    """The code actions' titles, as the lightbulb asks (automatic) or as Ctrl+. does."""
    diagnostics = [types.Diagnostic(range=span, message="wrong operator")] if problems else []
    trigger = (
        types.CodeActionTriggerKind.Invoked if asked else types.CodeActionTriggerKind.Automatic
    )
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        range=span,
        context=types.CodeActionContext(diagnostics=diagnostics, trigger_kind=trigger),
    )
    return [a.title for a in await client.lsp.text_document_code_action_async(params) or []]


async def test_the_lightbulb_sits_where_it_helps_for_our_clients_and_anywhere_for_others(
    project: Path, scripted_api: StartServer
) -> None:
    calc = project / "calc.py"
    cursor = types.Range(start=types.Position(1, 4), end=types.Position(1, 4))
    selection = types.Range(start=types.Position(1, 4), end=types.Position(1, 16))
    fix = text("lsp.action.fix_this", "en")
    env = api_env(scripted_api(script()))
    async with kesi_client("vscode+kesi", [project], env=env) as ours:
        ours.open(calc)
        assert await _titles(ours, calc, cursor, problems=False) == []
        assert await _titles(ours, calc, cursor, problems=True) == [fix]
        assert await _titles(ours, calc, selection, problems=False) == [fix]
        assert await _titles(ours, calc, cursor, problems=False, asked=True) == [fix]
    async with kesi_client("eglot", [project], env=env) as other:  # plain eglot: no kesi
        other.open(calc)
        assert await _titles(other, calc, cursor, problems=False) == [fix]


async def test_a_folder_answer_repeating_the_users_own_values_is_no_warning(
    project: Path, scripted_api: StartServer
) -> None:
    """VS Code's folder answer carries the user's values and the manifest's defaults: no
    "ignoring" warning for them; a folder value that would change something is still named."""
    own = {"approvals": "ask", "sandbox": "auto", "permissions": {}}
    for planted, warned in (({**own}, False), ({**own, "approvals": "acceptEdits"}, True)):
        configuration = {project.as_uri(): {"kesi": planted}}
        env = api_env(scripted_api(script(reply("Hi."))))
        async with kesi_client(
            "vscode+kesi", [project], env=env, init_options=own, configuration=configuration
        ) as c:
            await c.run("kesi.ask", {"prompt": "hi"})
            ignoring = [line for line in c.log_lines() if "ignoring kesi." in line]
        assert bool(ignoring) is warned, ignoring
        if warned:
            assert "kesi.approvals" in ignoring[0] and "kesi.sandbox" not in ignoring[0]
