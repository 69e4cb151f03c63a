"""Sessions per workspace folder, the fence, settings, and the failures a user can cause
(no API key, a malformed setting, a busy session, a file outside the workspace)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.clients import kesi_client
from tests.lsp.conftest import BUGGY, AgentCommand
from tests.lsp.helpers import api_env, wait_for
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e


@pytest.fixture
def two_folders(tmp_path: Path) -> tuple[Path, Path]:
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    alpha.mkdir()
    beta.mkdir()
    (alpha / "calc.py").write_text(BUGGY)
    (beta / "secret.py").write_text("TOKEN = 'beta-only-7f3a'\n")
    return alpha, beta


async def command_error(client: Any, name: str, argument: dict[str, Any]) -> JsonRpcException:
    with pytest.raises(JsonRpcException) as caught:
        await client.command(name, argument)
    return caught.value


async def test_two_folders_are_fenced_from_each_other(
    two_folders: tuple[Path, Path], scripted_api: StartServer
) -> None:
    alpha, beta = two_folders
    secret = str(beta / "secret.py")
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "../beta/secret.py"})),
            reply(
                tool_use("read_file", {"file_path": secret}),
                expect={"last_tool_result_is_error": True},
            ),
            reply(tool_use("list_files", {}), expect={"last_tool_result_is_error": True}),
            reply(
                tool_use("run_command", {"command": f"cat {secret}"}),
                expect={"last_tool_result_contains": "calc.py"},
            ),
            reply("I cannot see beta.", expect={"last_tool_result_is_error": True}),
            reply("Beta's first question.", expect={"message_count": 1}),
        )
    )
    async with kesi_client("neovim+kesi", [alpha, beta], env=api_env(api)) as client:
        client.answer_prompt = lambda params: "Allow once"
        done = await client.run("kesi.ask", {"prompt": "peek", "uri": (alpha / "calc.py").as_uri()})
        assert done["status"] == "done"
        results = "\n".join(str(r.body["messages"][-1]) for r in api.requests[1:5])
        assert "beta-only-7f3a" not in results
        # The other folder is its own session: no history from alpha, its own bill.
        other = await client.run("kesi.ask", {"prompt": "hi", "uri": (beta / "secret.py").as_uri()})
        assert other["status"] == "done"
        alpha_cost = await client.command("kesi.cost", {"uri": alpha.as_uri()})
        beta_cost = await client.command("kesi.cost", {"uri": (beta / "secret.py").as_uri()})
        assert (alpha_cost["requests"], beta_cost["requests"]) == (5, 1)


async def test_runs_in_two_folders_at_once_but_one_per_folder(
    two_folders: tuple[Path, Path], scripted_agent: AgentCommand
) -> None:
    alpha, beta = two_folders
    steps = [{"do": "wait_file", "path": ".go", "seconds": 30}]
    async with kesi_client("vscode", [alpha, beta], server=scripted_agent(steps)) as client:
        first = await client.command("kesi.ask", {"prompt": "a", "uri": alpha.as_uri()})
        other = await client.command("kesi.ask", {"prompt": "b", "uri": beta.as_uri()})
        error = await command_error(client, "kesi.ask", {"prompt": "again", "uri": alpha.as_uri()})
        assert "already working in this folder" in error.message
        assert error.data == {"reason": "busy", "runId": first["runId"]}
        error = await command_error(client, "kesi.reset", {"uri": alpha.as_uri()})
        assert "cancel the run" in error.message
        (alpha / ".go").touch()
        (beta / ".go").touch()
        assert (await client.wait_finished(first["runId"]))["status"] == "done"
        assert (await client.wait_finished(other["runId"]))["status"] == "done"


async def test_files_outside_every_folder_are_refused(
    tmp_path: Path, project: Path, scripted_agent: AgentCommand
) -> None:
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x = 1\n")
    (project / ".env").write_text("SECRET=1\n")
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}
    async with kesi_client("neovim", [project], server=scripted_agent([])) as client:
        error = await command_error(
            client, "kesi.fixThis", {"uri": outside.as_uri(), "range": whole}
        )
        assert "outside every workspace folder" in error.message
        assert error.data["reason"] == "outsideWorkspace"
        error = await command_error(
            client, "kesi.fixThis", {"uri": (project / ".env").as_uri(), "range": whole}
        )
        assert "ignore list" in error.message and error.data["reason"] == "ignoredPath"
        error = await command_error(
            client, "kesi.fixThis", {"uri": "untitled:Untitled-1", "range": whole}
        )
        assert error.data["reason"] == "notAFile"
        error = await command_error(client, "kesi.fixThis", {"uri": outside.as_uri()})
        assert error.code == -32602 and "'range' is required" in error.message
        error = await command_error(client, "kesi.ask", {"prompt": 3})
        assert error.code == -32602 and "'prompt' must be a string" in error.message
        assert not client.timeline or all(m != "kesi/runFinished" for m, _ in client.timeline)


async def test_no_workspace_folder(scripted_agent: AgentCommand) -> None:
    async with kesi_client("helix", [], server=scripted_agent([])) as client:
        error = await command_error(client, "kesi.ask", {"prompt": "hello"})
        assert "none is open" in error.message and error.data["reason"] == "noWorkspaceFolder"


async def test_no_api_key(project: Path) -> None:
    async with kesi_client("vscode+kesi", [project], env={}) as client:
        done = await client.run("kesi.ask", {"prompt": "fix everything"})
        assert done["status"] == "failed"
        assert "ANTHROPIC_API_KEY" in done["text"]
        errors = client.shown(types.MessageType.Error)
        assert len(errors) == 1 and "ANTHROPIC_API_KEY" in errors[0]
        assert "Traceback" not in errors[0]
        assert (project / "calc.py").read_text() == BUGGY and not client.applied
        assert (await client.command("kesi.cost", {}))["requests"] == 0
        # The server is still there and answers.
        assert (await client.command("kesi.permissions", {}))["commands"] == []


@pytest.mark.slow  # the SDK retries a refused connection twice, with backoff
async def test_api_unreachable_says_what_to_do(project: Path) -> None:
    env = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}
    async with kesi_client("neovim", [project], env=env) as client:
        done = await client.run("kesi.ask", {"prompt": "hello"}, seconds=120)
        assert done["status"] == "failed"
        errors = client.shown(types.MessageType.Error)
        assert len(errors) == 1 and errors[0].startswith("KeSi stopped: ")
        assert done["text"] in errors[0]
        assert errors[0].endswith(
            "(ANTHROPIC_BASE_URL or the kesi.baseUrl setting), then run the command again."
        )


async def test_malformed_settings_are_reported_and_defaulted(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Hello.")))
    init = {"kesi": {"maxTurns": "many", "sandbox": "cage", "promptCaching": "yes"}}
    async with kesi_client("vscode", [project], env=api_env(api), init_options=init) as client:
        await wait_for(lambda: len(client.shown(types.MessageType.Warning)) == 3)
        warnings = client.shown(types.MessageType.Warning)
        assert any("kesi.maxTurns" in w and '"many"' in w and "using 20" in w for w in warnings)
        assert any("kesi.sandbox" in w and '"cage"' in w and '"auto"' in w for w in warnings)
        assert any(
            "kesi.promptCaching" in w and 'true or false, got "yes"; using true' in w
            for w in warnings
        )
        assert len(warnings) == 3
        done = await client.run("kesi.ask", {"prompt": "hi"})
        assert done["status"] == "done"
        (progress,) = client.lsp.progress_reports.values()
        # (the bar begins when the client answers, so its first report may already show the cost)
        assert progress[1].message.split(" · ")[0] == "working"
        assert len(client.shown(types.MessageType.Warning)) == 3  # said once, not per run


async def test_settings_from_configuration_and_their_changes(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            reply(tool_use("list_files", {})),
            reply(tool_use("list_files", {})),
            reply("never reached"),
        )
    )
    api.allow_problems()  # the last step is never requested: the turn limit stops first
    configuration = {"": {"kesi": {"maxTurns": 2}}}
    async with kesi_client(
        "neovim", [project], env=api_env(api), configuration=configuration
    ) as client:
        done = await client.run("kesi.ask", {"prompt": "loop"})
        assert done["status"] == "limit"
        errors = client.shown(types.MessageType.Error)
        assert len(errors) == 1 and errors[0].startswith("KeSi stopped at a limit:")
        assert errors[0].endswith("or raise the kesi.maxTurns setting.")
        client.lsp.set_configuration({"kesi": {"maxTurns": 0, "locale": "zh-TW"}})
        client.lsp.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings=None)
        )
        await wait_for(lambda: len(client.shown(types.MessageType.Warning)) == 1)
        (warning,) = client.shown(types.MessageType.Warning)
        assert "kesi.maxTurns" in warning and "1 到 1000 之間的整數" in warning


async def test_code_action_offers_fix_this(project: Path, scripted_agent: AgentCommand) -> None:
    calc = project / "calc.py"
    diagnostic = types.Diagnostic(
        range=types.Range(
            start=types.Position(line=1, character=4), end=types.Position(line=1, character=16)
        ),
        message="wrong operator",
        severity=types.DiagnosticSeverity.Error,
    )
    async with kesi_client("neovim", [project], server=scripted_agent([])) as client:
        client.open(calc)

        async def actions(
            diagnostics: list[types.Diagnostic], only: list[str] | None = None, uri: str = ""
        ) -> list[Any]:
            params = types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri or calc.as_uri()),
                range=diagnostic.range,
                context=types.CodeActionContext(diagnostics=diagnostics, only=only),
            )
            return list(await client.lsp.text_document_code_action_async(params) or [])

        (fix,) = await actions([diagnostic])
        assert fix.title == "KeSi: fix this" and fix.kind == types.CodeActionKind.QuickFix
        assert list(fix.diagnostics) == [diagnostic]
        assert fix.command.command == "kesi.fixThis"
        (argument,) = fix.command.arguments
        assert argument["uri"] == calc.as_uri() and argument["diagnostics"][0]["message"] == (
            "wrong operator"
        )
        (rewrite,) = await actions([])
        assert rewrite.kind == types.CodeActionKind.RefactorRewrite
        assert await actions([], only=["source"]) == []
        assert len(await actions([], only=["refactor"])) == 1
        assert await actions([], uri=(project.parent / "x.py").as_uri()) == []
        # Running the action's command is a real fixThis.
        result = await client.command(fix.command.command, argument)
        assert (await client.wait_finished(result["runId"]))["status"] == "done"


async def test_removing_a_folder_stops_its_run_and_fences_it_off(
    two_folders: tuple[Path, Path], scripted_agent: AgentCommand
) -> None:
    alpha, beta = two_folders
    steps = [{"do": "wait", "seconds": 60}]
    async with kesi_client("vscode", [alpha, beta], server=scripted_agent(steps)) as client:
        run = await client.command("kesi.ask", {"prompt": "wait", "uri": beta.as_uri()})
        removed = types.WorkspaceFolder(uri=beta.as_uri(), name="beta")
        client.lsp.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(
                event=types.WorkspaceFoldersChangeEvent(added=[], removed=[removed])
            )
        )
        assert (await client.wait_finished(run["runId"], 20))["status"] == "cancelled"
        error = await command_error(client, "kesi.ask", {"prompt": "x", "uri": beta.as_uri()})
        assert error.data["reason"] == "outsideWorkspace"


async def test_traditional_chinese_prompts(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": "touch ok"})),
            reply("好了。", expect={"last_tool_result_is_error": False}),
        )
    )
    init = {"locale": "zh-TW", "sandbox": "off"}
    async with kesi_client("neovim", [project], env=api_env(api), init_options=init) as client:
        client.answer_prompt = lambda params: "這次"
        done = await client.run("kesi.ask", {"prompt": "建立檔案"})
        assert done["status"] == "done" and (project / "ok").exists()
        (prompt,) = client.prompts
        assert prompt.message == (
            "[需要授權] 執行指令：touch ok\n理由：touch 不在自動放行的唯讀清單裡\n"
            "「這個 session 都好」：這個 session 結束前，一字不差的這條指令不再問你；"
            "其他指令還是會問。\n放行嗎？"
        )
        titles = [a.title for a in prompt.actions or []]
        assert titles == ["不要", "這次", "這個 session 都好"], "Day 14's answers, Deny first"
        assert any(line.startswith("  （本輪 2 次請求") for line in client.log_lines())
