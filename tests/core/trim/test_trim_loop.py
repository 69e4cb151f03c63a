"""Trimming inside the real loop, against the strict scripted Messages API over HTTP.

The scripted server rejects any request whose tool_use/tool_result pairing is broken (the
fixture fails the test on any problem), and its prompt-cache accounting shows what trimming
does to caching.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.core.trim import PLACEHOLDER_MARK
from kesi_lsp.core.untrusted import unmarked
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import Agent, MakeAgent


def _code(name: str, lines: int = 100) -> str:
    return "".join(f"def {name}_{i}(x):\n    return x + {i}\n" for i in range(lines))


def _results(request_body: Any) -> list[tuple[str, str]]:
    """(tool_use_id, content) of every tool_result in a request, in order."""
    out = []
    for message in request_body["messages"]:
        if message["role"] == "user" and isinstance(message["content"], list):
            for block in message["content"]:
                if block.get("type") == "tool_result":
                    out.append((block["tool_use_id"], str(block["content"])))
    return out


def _files(agent: Agent, names: list[str]) -> Path:
    root = agent.ctx.session.root
    for name in names:
        (root / f"{name}.py").write_text(_code(name), encoding="utf-8")
    return root


@pytest.mark.slow
async def test_a_budget_trim_keeps_requests_valid_and_write_file_must_read_again(
    make_agent: MakeAgent,
) -> None:
    names = [f"m{i}" for i in range(10)]  # ~750 estimated tokens each
    reads = [reply(tool_use("read_file", {"file_path": f"{n}.py"}, id=f"toolu_{n}")) for n in names]
    agent = make_agent(
        script(
            *reads,
            reply("Ten modules of small helpers."),
            reply(tool_use("write_file", {"file_path": "m0.py", "content": "x = 1\n"})),
            reply(tool_use("read_file", {"file_path": "m0.py"})),
            reply(tool_use("write_file", {"file_path": "m0.py", "content": "x = 1\n"})),
            reply("Done: m0.py now holds x = 1."),
        ),
        locale="en",
        context_budget=6000,
    )
    root = _files(agent, names)
    first = await agent.ask("Read every module.")
    assert first.status == "done"
    notices = agent.notices("info")
    assert len(notices) == 1, "one batch, not a trim per request"
    assert notices[0].startswith("Cleared ") and "old tool result(s)" in notices[0]
    assert root / "m0.py" not in agent.ctx.session.reads, "a cleared read no longer counts"
    assert root / "m9.py" in agent.ctx.session.reads
    second = await agent.ask("Replace m0.py with x = 1.")
    assert second.status == "done"
    assert (root / "m0.py").read_text(encoding="utf-8") == "x = 1\n"
    requests = [r.body for r in agent.server.requests]
    # The first write was refused: the model was told to read first, and nothing changed then.
    refused = _results(requests[12])[-1][1]
    assert "read the current content with read_file" in refused
    # In the last request, the oldest reads are placeholders that say how to get them back,
    # and the newest results are whole.
    last = dict(_results(requests[-1]))
    assert last["toolu_m0"].startswith(PLACEHOLDER_MARK)
    assert "m0.py" in last["toolu_m0"] and "call read_file again" in last["toolu_m0"]
    assert unmarked(last["toolu_m9"]) == _code("m9")  # inside the data marker
    agent.assert_history_sound()


async def test_with_caching_on_and_below_the_budget_each_request_extends_the_last(
    make_agent: MakeAgent,
) -> None:
    """Nothing is rewritten, so every request reads the whole previous one from the cache."""
    names = [f"m{i}" for i in range(3)]
    agent = make_agent(
        script(
            reply(tool_use("read_file", {"file_path": "m0.py"})),
            reply(tool_use("read_file", {"file_path": "m0.py"})),  # a superseded read
            *[reply(tool_use("read_file", {"file_path": f"{n}.py"})) for n in names[1:]],
            reply(tool_use("read_file", {"file_path": "m0.py"})),
            reply("Read."),
        ),
        locale="en",
    )
    _files(agent, names)
    await agent.ask("Read them.")
    bodies = [r.body for r in agent.server.requests]
    for before, after in itertools.pairwise(bodies):
        dumped = [json.dumps(m, sort_keys=True) for m in before["messages"][:-1]]
        assert [json.dumps(m, sort_keys=True) for m in after["messages"][: len(dumped)]] == dumped
    usage = [a.usage for a in agent.server.accounting]
    for previous, current in itertools.pairwise(usage):
        prompt = (
            previous.input_tokens
            + previous.cache_creation_input_tokens
            + previous.cache_read_input_tokens
        )
        assert current.cache_read_input_tokens >= prompt - previous.input_tokens


# Each run prints the time last, so six runs of the same command are six different answers
# (the same answer four times in a row would be a loop: kesi_lsp.core.repeats stops it).
SEQ = "seq 1 400; date +%s%N"


async def test_without_caching_superseded_output_is_cleared_at_once(
    make_agent: MakeAgent,
) -> None:
    run = [reply(tool_use("run_command", {"command": SEQ}, id=f"toolu_{i}")) for i in range(6)]
    agent = make_agent(
        script(*run, reply("The numbers never change.")),
        locale="en",
        prompt_caching=False,
    )
    finished = await agent.ask("Run seq six times.")
    assert finished.status == "done"
    last = dict(_results(agent.server.requests[-1].body))
    for i in (0, 1):  # superseded, and older than the four newest results
        assert last[f"toolu_{i}"].startswith(PLACEHOLDER_MARK)
        assert f"`{SEQ}`" in last[f"toolu_{i}"] and "(exit code 0)" in last[f"toolu_{i}"]
    for i in (2, 3, 4, 5):
        assert last[f"toolu_{i}"].startswith('<data from="command output"')  # outside content
        assert unmarked(last[f"toolu_{i}"]).startswith("1\n2\n3\n")
    agent.assert_history_sound()


async def test_trimming_can_be_turned_off(make_agent: MakeAgent) -> None:
    run = [reply(tool_use("run_command", {"command": SEQ})) for _ in range(6)]
    agent = make_agent(
        script(*run, reply("Same output.")),
        locale="en",
        prompt_caching=False,
        context_trimming=False,
        compaction=False,
        context_budget=100,
    )
    await agent.ask("Run seq six times.")
    assert agent.notices("info") == []
    last = _results(agent.server.requests[-1].body)
    assert len(last) == 6
    assert not any(content.startswith(PLACEHOLDER_MARK) for _, content in last)
