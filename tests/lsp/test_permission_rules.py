"""The `permissions` setting over the real wire (Day 14's promised rule file, design §3).

User-level rules from the initialization options decide without a prompt; a deny rule and the
red line beat every allow rule; a folder's settings cannot grant anything; `kesi.permissions`
lists the rules in force and where each came from; a malformed pattern is reported once and
the others stay in force.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env, wait_for
from tests.plugins.scripted_api import StartServer

RULES = {
    "allow": ["touch made-by-rule.txt", "python3 -c *", "edit:docs/**"],
    "deny": ["git push*", "edit:calc.py"],
}


def run(command: str) -> object:
    return reply(tool_use("run_command", {"command": command}))


async def test_rules_decide_without_a_prompt_and_deny_beats_allow(
    project: Path, scripted_api: StartServer
) -> None:
    def then(command: str, seen: str) -> object:
        return reply(
            tool_use("run_command", {"command": command}),
            expect={"last_tool_result_contains": seen},
        )

    api = scripted_api(
        script(
            run("touch made-by-rule.txt"),
            then("git push origin main", "（結束碼 0）"),  # the allow rule: ran, no prompt
            then("timeout 5 git push --tags", "git push*"),  # the deny rule, no prompt
            then("touch made-by-rule.txt && touch other.txt", "git push*"),  # behind a wrapper
            then("rm -rf ~", "使用者拒絕執行這個指令"),  # not all of it allowed: asked, denied
            reply("done", expect={"last_tool_result_contains": "這個指令會刪掉根目錄或家目錄"}),
        )
    )
    rules = {**RULES, "allow": [*RULES["allow"], "rm *"]}  # no allow rule lifts the red line
    init = {"kesi": {"locale": "zh-TW", "permissions": rules, "maxToolFailures": 10}}
    async with kesi_client("vscode", [project], env=api_env(api), init_options=init) as client:
        done = await client.run("kesi.ask", {"prompt": "go"})
        assert done["status"] == "done"
        assert [p.message for p in client.prompts if "other.txt" not in p.message] == []
        assert len(client.prompts) == 1
    assert (project / "made-by-rule.txt").exists()
    assert not (project / "other.txt").exists()


async def test_a_folders_settings_cannot_grant_anything(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            run("touch planted.txt"),
            reply("refused", expect={"last_tool_result_is_error": True}),
        )
    )
    planted = {"kesi": {"permissions": {"allow": ["*"]}}}
    async with kesi_client(
        "neovim", [project], env=api_env(api), configuration={project.as_uri(): planted}
    ) as client:
        done = await client.run("kesi.ask", {"prompt": "go"})
        assert done["status"] == "done"
        assert len(client.prompts) == 1, "the folder's allow rule was ignored: it asked"
        listed = await client.command("kesi.permissions", {})
        assert listed["rules"] == []
    assert not (project / "planted.txt").exists()


async def test_kesi_permissions_lists_rules_and_their_source(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("hi")))
    init = {"kesi": {"permissions": RULES}}
    async with kesi_client("vscode", [project], env=api_env(api), init_options=init) as client:
        listed = await client.command("kesi.permissions", {})
    assert {"kind": "deny", "target": "command", "pattern": "git push*",
            "source": "initializationOptions"} in listed["rules"]  # fmt: skip
    assert {"kind": "allow", "target": "edit", "pattern": "docs/**",
            "source": "initializationOptions"} in listed["rules"]  # fmt: skip
    assert listed["lines"][-1].startswith("Permission rules: ")
    assert "deny git push* (initialization options)" in listed["lines"][-1]
    assert listed["commands"] == [] and listed["files"] == []  # grants stay separate


async def test_an_edit_rule_denies_the_change(project: Path, scripted_api: StartServer) -> None:
    edit = {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"}
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(tool_use("edit_file", edit)),
            reply("ok", expect={"last_tool_result_contains": "edit:calc.py"}),
        )
    )
    init = {"kesi": {"permissions": RULES, "approvals": "acceptEdits"}}
    before = (project / "calc.py").read_text()
    async with kesi_client("vscode", [project], env=api_env(api), init_options=init) as client:
        done = await client.run("kesi.ask", {"prompt": "fix"})
        assert done["status"] == "done" and client.prompts == []
    assert (project / "calc.py").read_text() == before


async def test_a_malformed_pattern_is_reported_once_and_ignored(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(run("touch ok.txt"), reply("done")))
    bad = {"allow": ["touch ok.txt", "", "echo 'open"], "deny": [5], "maybe": ["x"]}
    init = {"kesi": {"permissions": bad}}
    async with kesi_client("vscode", [project], env=api_env(api), init_options=init) as client:
        await wait_for(lambda: len(client.shown(types.MessageType.Warning)) == 4)
        warnings = client.shown(types.MessageType.Warning)
        assert all("kesi.permissions" in w for w in warnings)
        assert any("quote is not closed" in w for w in warnings)
        done = await client.run("kesi.ask", {"prompt": "go"})
        assert done["status"] == "done" and client.prompts == []
        listed = await client.command("kesi.permissions", {})
        assert [r["pattern"] for r in listed["rules"]] == ["touch ok.txt"]
        assert len(client.shown(types.MessageType.Warning)) == 4  # said once, not per pull
    assert (project / "ok.txt").exists()
