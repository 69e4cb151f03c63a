"""What goes wrong gets a JSON-RPC error that says what and how on, and damages nothing.

A prompt without an API key or with the API out of reach (in the session's locale), a `cwd`
that is not absolute, an unknown session, a prompt while one is running, malformed params and
lines that are not JSON at all; and through all of it nothing but JSON-RPC on stdout.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from acp import RequestError, text_block

from kesi_lsp.scripted_api import script, stall_after
from tests.acp.conftest import BUGGY
from tests.acp.editor import EditorClient, acp_agent, agent_env, until
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e


async def raise_for(coro: Any) -> RequestError:
    with pytest.raises(RequestError) as caught:
        await coro
    return caught.value


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_a_prompt_without_an_api_key_says_how_to_set_one(locale: str, project: Path) -> None:
    async with acp_agent(agent_env(None, KESI_LOCALE=locale)) as agent:
        session = await agent.start(project)
        error = await raise_for(agent.prompt(session, "fix calc"))
        assert error.code == -31001 and error.data["reason"] == "missingKey"
        if locale == "en":
            assert str(error).startswith(
                "KeSi stopped: No Anthropic API key: set ANTHROPIC_API_KEY"
            )
            assert "agent_servers" in str(error) and "acp.json" in str(error)
        else:
            assert str(error).startswith("KeSi 停下來了：沒有 Anthropic API 金鑰")
        assert error.data["hint"] in str(error)
        # nothing was damaged, and the session still takes prompts (and fails the same way)
        again = await raise_for(agent.prompt(session, "fix calc"))
        assert again.data["reason"] == "missingKey"
        agent.messages()
    assert (project / "calc.py").read_text() == BUGGY


async def test_an_unreachable_api_says_what_to_check(project: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = agent_env(
        None, ANTHROPIC_API_KEY="sk-ant-test", ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}"
    )
    async with acp_agent(env) as agent:
        error = await raise_for(agent.prompt(await agent.start(project), "hello"))
    assert error.code == -31001 and error.data["reason"] == "unreachable"
    assert "cannot reach the API" in str(error)
    assert "Check the network connection and the API address" in str(error)


async def test_a_relative_or_missing_cwd_is_refused(project: Path) -> None:
    async with acp_agent(agent_env(None)) as agent:
        error = await raise_for(agent.conn.new_session(cwd="project", mcp_servers=[]))
        assert error.code == -32602 and error.data["reason"] == "cwdNotAbsolute"
        assert str(error) == (
            "session/new: cwd must be an absolute path (it becomes the folder KeSi may work in); "
            "got project."
        )
        gone = await raise_for(agent.conn.new_session(cwd=str(project / "nope"), mcp_servers=[]))
        assert gone.data["reason"] == "cwdMissing"


async def test_an_unknown_session_is_named(project: Path) -> None:
    async with acp_agent(agent_env(None)) as agent:
        error = await raise_for(agent.prompt("kesi-nope", "hello"))
        assert error.code == -32002 and error.data == {
            "reason": "unknownSession",
            "sessionId": "kesi-nope",
        }
        assert "Unknown session kesi-nope" in str(error) and "session/new" in str(error)
        mode = await raise_for(agent.conn.set_session_mode(session_id="kesi-nope", mode_id="ask"))
        assert mode.code == -32002
        await agent.conn.cancel(session_id="kesi-nope")  # a notification: ignored, logged
        assert (await agent.start(project)).startswith("kesi-")


async def test_a_second_prompt_while_one_runs_is_refused(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(stall_after(6, "Let me think about this for a long while.")))
    client = EditorClient()
    async with acp_agent(agent_env(api), client) as agent:
        session = await agent.start(project)
        first = asyncio.ensure_future(agent.prompt(session, "think"))
        await client.wait_for(client.model_text)
        error = await raise_for(agent.prompt(session, "and this"))
        assert error.code == -31000 and error.data == {"reason": "busy"}
        assert str(error).startswith("KeSi is still working on the previous message")
        other = await agent.start(project)  # another thread in the same folder is free
        assert other != session
        await agent.conn.cancel(session_id=session)
        assert (await asyncio.wait_for(first, 20)).stop_reason == "cancelled"
    assert len(api.requests) == 1  # the refused prompt never reached the model


async def test_malformed_params_name_the_field(project: Path) -> None:
    async with acp_agent(agent_env(None)) as agent:
        raw = agent.conn._conn
        no_cwd = await raise_for(raw.send_request("session/new", {"mcpServers": []}))
        assert no_cwd.code == -32602
        assert str(no_cwd) == "Invalid params for session/new: cwd: Field required"
        assert no_cwd.data["errors"] == [{"field": "cwd", "problem": "Field required"}]
        session = await agent.start(project)
        bad = await raise_for(
            raw.send_request("session/prompt", {"sessionId": session, "prompt": "fix it"})
        )
        assert bad.code == -32602 and "prompt" in str(bad)
        image = await raise_for(
            raw.send_request(
                "session/prompt",
                {
                    "sessionId": session,
                    "prompt": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}],
                },
            )
        )
        assert image.code == -32602 and image.data["reason"] == "unsupportedContent"
        empty = await raise_for(agent.conn.prompt(session_id=session, prompt=[text_block("  ")]))
        assert empty.data["reason"] == "emptyPrompt"
        unknown = await raise_for(raw.send_request("session/load", {"sessionId": session}))
        assert unknown.code == -32601
        agent.messages()


async def test_lines_that_are_not_messages_are_answered_and_nothing_else_reaches_stdout(
    project: Path,
) -> None:
    async with acp_agent(agent_env(None)) as agent:
        stdin = agent.stdin
        for junk in (b"this is not json\n", b"[1, 2]\n", b"42\n", b'{"id": 7}\n'):
            stdin.write(junk)
        await stdin.drain()
        await agent.start(project)  # the connection still works
        await until(lambda: len(agent.messages()) >= 6, seconds=10)
        messages = agent.messages()
    errors = [m["error"] for m in messages if "error" in m and m.get("id") in (None, 7)]
    assert [e["code"] for e in errors] == [-32700, -32600, -32600, -32600]
    assert errors[0]["message"].startswith("Parse error: the line is not JSON")
    assert "batches are not supported" in errors[1]["message"]
    assert [m["id"] for m in messages if "error" in m] == [None, None, None, 7]
    json.dumps(messages)  # every byte on stdout was JSON-RPC (agent.messages() checks)


async def test_a_line_nested_a_hundred_thousand_deep_is_a_parse_error_and_the_connection_stays(
    project: Path,
) -> None:
    """Python's JSON parser gives up on deep nesting with RecursionError (not ValueError): it
    used to escape the receive loop and end the connection. Nesting the parser does accept
    (900 deep inside a request's params) reaches the request's own checks."""
    deep = b"[" * 100_000 + b"]" * 100_000 + b"\n"
    nested = "[" * 900 + "]" * 900
    inside = f'{{"jsonrpc":"2.0","id":9,"method":"session/new","params":{{"cwd":{nested}}}}}\n'
    async with acp_agent(agent_env(None)) as agent:
        agent.stdin.write(deep)
        agent.stdin.write(b'{"jsonrpc":"2.0","id":8,"method":' + b"{" * 100_000 + b"\n")
        agent.stdin.write(inside.encode())
        await agent.stdin.drain()
        session = await agent.start(project)  # the connection still works
        assert session.startswith("kesi-")
        await until(lambda: any(m.get("id") == 9 for m in agent.messages()), seconds=10)
        messages = agent.messages()
    errors = {m.get("id"): m["error"] for m in messages if "error" in m}
    first = next(m["error"] for m in messages if "error" in m)
    assert first == {
        "code": -32700,
        "message": "Parse error: the line nests arrays or objects too deeply to be a message",
    }
    assert errors[9]["code"] == -32602 and "cwd" in errors[9]["message"]
    assert "Traceback" not in json.dumps(messages)
    assert len([m for m in messages if "error" in m and m.get("id") is None]) == 2


@pytest.mark.subprocess
def test_a_recorded_session_from_a_file_is_answered_line_by_line(
    project: Path, tmp_path: Path
) -> None:
    """`kesi-lsp acp < in.jsonl > out.jsonl`: files instead of pipes, and the input ends before
    the answers are out; every request is still answered, on stdout alone."""
    import subprocess
    import sys

    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 1}},
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "session/new",
            "params": {"cwd": str(project), "mcpServers": []},
        },
        {"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": {"cwd": "relative"}},
    ]
    given = tmp_path / "in.jsonl"
    given.write_text("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")
    answered = tmp_path / "out.jsonl"
    with given.open("rb") as stdin, answered.open("wb") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "kesi_lsp", "acp"],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=agent_env(None),
            timeout=60,
            check=False,
        )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    out = [json.loads(line) for line in answered.read_text().splitlines()]
    by_id = {m["id"]: m for m in out}
    assert by_id[0]["result"]["protocolVersion"] == 1
    assert by_id[1]["result"]["sessionId"].startswith("kesi-")
    assert by_id[2]["error"]["code"] == -32602
    assert by_id[None]["error"]["code"] == -32700
    assert len(out) == 4


async def test_a_line_over_the_size_limit_is_refused_and_the_connection_stays(
    project: Path,
) -> None:
    """The limit is the `maxMessageMegabytes` setting, from the environment (the line reader
    exists before `initialize`), and the line's bytes are dropped as they come."""
    async with acp_agent(agent_env(None, KESI_MAX_MESSAGE_MEGABYTES="1")) as agent:
        agent.stdin.write(b'{"jsonrpc":"2.0","id":5,"method":"x","params":"' + b"y" * (3 << 20))
        agent.stdin.write(b'"}\n')
        await agent.stdin.drain()
        session = await agent.start(project)
        assert session.startswith("kesi-")
        messages = agent.messages()
    refused = [m["error"] for m in messages if "error" in m]
    assert refused == [
        {
            "code": -32600,
            "message": "Invalid request: a message is over the limit of 1048576 bytes "
            "(KESI_MAX_MESSAGE_MEGABYTES); it was dropped",
        }
    ]
