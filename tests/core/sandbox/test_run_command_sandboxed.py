"""run_command through the real tool, with the gate in front and bubblewrap underneath.

The layers stack as in the seed's Day 15 demo: the gate asks, the (scripted) user says yes, and
the sandbox still refuses. What the model gets back is the tool result; these tests read it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass
from pathlib import Path

import pytest

from kesi_lsp.core.sandbox import Sandbox, SandboxKind
from kesi_lsp.core.sandbox.bubblewrap import Limits
from tests.core.sandbox.agents import agent
from tests.core.sandbox.conftest import (
    FAKE_KEY,
    Playground,
    bubblewrap,
    fork_bomb,
    unique_seconds,
)
from tests.processes import gone, processes_with

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]


async def test_cat_env_is_asked_then_refused_by_the_sandbox(playground: Playground) -> None:
    me = agent(playground, bubblewrap(playground, locale="zh-TW"), locale="zh-TW")
    result = await me.run("cat .env")
    assert me.approver.commands[0].reason == "指令碰到了不開放給工具讀取的路徑"
    assert result.is_error
    assert FAKE_KEY not in result.text
    assert "Permission denied" in result.text
    assert result.text.endswith("（結束碼 1）")


async def test_home_and_network_are_refused_even_when_the_user_says_yes(
    playground: Playground,
) -> None:
    me = agent(playground, bubblewrap(playground))
    ssh = await me.run("cat ~/.ssh/config 2>&1 || echo 'not readable'")
    assert "IdentityFile" not in ssh.text and "not readable" in ssh.text
    curl = await me.run("curl -sS --max-time 3 https://pypi.org/ 2>&1 | head -1")
    assert "Could not resolve host" in curl.text or "resolve" in curl.text
    assert len(me.approver.commands) == 2  # both were asked, and both were allowed


async def test_git_status_is_auto_allowed_and_works(playground: Playground) -> None:
    playground.root.joinpath("calc.py").write_text("x = 1\n")
    proc = await asyncio.create_subprocess_exec(
        "git", "init", "-q", cwd=playground.root, stdout=asyncio.subprocess.DEVNULL
    )
    await proc.wait()
    me = agent(playground, bubblewrap(playground))
    result = await me.run("git status --short")
    assert me.approver.commands == []  # on the read-only list: nobody was asked
    assert not result.is_error, result.text
    assert "?? calc.py" in result.text


async def test_a_fork_bomb_comes_back_as_a_clear_result(playground: Playground) -> None:
    """A fork bomb the red line can read (`f() { f | f; }; f`) never reaches the sandbox now
    (`test_red_line_whole_system.py`); the process limit is for the floods it cannot read, such
    as a loop of background jobs, asked and allowed here."""
    me = agent(playground, bubblewrap(playground, Limits(max_processes=64)), timeout=60)
    _, name = fork_bomb()
    assert (await me.run(_)).text.startswith("Error: this operation was blocked")
    bomb = f"for i in $(seq 300); do sh -c 'sleep 30; :' {name} & done; wait"
    result = await me.run(bomb)
    assert result.is_error
    assert "64 processes" in result.text, result.text[-400:]
    assert processes_with(name) == []


async def test_yes_into_a_file_comes_back_as_a_clear_result(playground: Playground) -> None:
    box = bubblewrap(playground, Limits(max_file_bytes=2 << 20), locale="zh-TW")
    me = agent(playground, box, locale="zh-TW")
    result = await me.run("yes > filler.txt")
    assert result.is_error
    assert "（沙箱：有檔案寫到了 2 MiB 的大小上限，寫檔的行程被終止）" in result.text
    assert result.text.endswith("（結束碼 153）")


@pytest.mark.slow  # a real 2 s timeout
async def test_timeout_kills_everything_in_the_sandbox(playground: Playground) -> None:
    me = agent(playground, bubblewrap(playground), timeout=2)
    first, second = unique_seconds(41), unique_seconds(42)
    result = await me.run(f"(sleep {first}; echo alive > orphan.txt) & echo thrown; sleep {second}")
    assert result.is_error
    assert result.text.startswith("thrown\n")
    assert "did not finish within 2 seconds" in result.text
    assert "(killed by signal 15)" in result.text  # as without a sandbox
    assert await gone(first) == [] and await gone(second) == []
    assert not (playground.root / "orphan.txt").exists()


async def test_a_normal_exit_leaves_no_background_process(playground: Playground) -> None:
    me = agent(playground, bubblewrap(playground))
    marker = unique_seconds(25)
    result = await me.run(f"sleep {marker} & echo started")
    assert result.text == "started\n(exit code 0)"
    assert await gone(marker) == []


@dataclass(frozen=True)
class Counting:
    """A sandbox that records whether it was ever asked to launch anything."""

    inner: Sandbox
    launched: list[str] = dataclasses.field(default_factory=list)

    @property
    def kind(self) -> SandboxKind:
        return self.inner.kind

    def argv(self, command: str, root: Path) -> list[str]:
        self.launched.append(command)
        return self.inner.argv(command, root)

    def environment(self, base: dict[str, str], root: Path) -> dict[str, str]:
        return self.inner.environment(base, root)


async def test_a_red_line_never_reaches_the_sandbox(playground: Playground) -> None:
    counting = Counting(bubblewrap(playground))
    me = agent(playground, counting)
    for command in ("rm -rf /", "timeout 5 rm -rf ~", "sudo id", "$(echo rm) -rf /"):
        result = await me.run(command)
        assert result.is_error
        assert result.text.startswith("Error: this operation was blocked by the safety rules")
    assert counting.launched == []
    assert me.approver.commands == []
