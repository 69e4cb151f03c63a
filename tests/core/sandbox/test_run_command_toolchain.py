"""run_command as the model sees it: what actually ran, and what the sandbox hid, in words."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kesi_lsp.core.events import Event, Notice
from tests.core.sandbox.agents import agent
from tests.core.sandbox.conftest import Playground, bubblewrap

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        capture_output=True,
        check=True,
    )


async def test_allowed_git_says_what_actually_ran(playground: Playground) -> None:
    git(playground.root, "init", "-q")
    (playground.root / "note.txt").write_text("changed\n")
    tools = agent(playground, bubblewrap(playground))
    seen: list[Event] = []
    tools.ctx.emit = seen.append
    result = await tools.run("git status --short")
    first = result.text.splitlines()[0]
    assert first.startswith("(ran as: git --no-pager --no-optional-locks -c core.fsmonitor=false")
    assert "note.txt" in result.text and tools.approver.commands == []
    assert any(isinstance(e, Notice) and e.text == first for e in seen)
    plain = await tools.run("ls note.txt")
    assert not plain.text.startswith("(ran as:")


async def test_the_result_says_when_the_sandbox_hid_something(playground: Playground) -> None:
    launch = playground.home / "Desktop"
    launch.mkdir()
    tools = agent(playground, bubblewrap(playground), locale="zh-TW")
    result = await tools.run(f"cd {launch}")
    assert result.is_error
    assert f"（沙箱：{launch} 在這台機器上是存在的，只是指令看不到" in result.text
    secret = await tools.run("cat .env")
    assert "可能放著機密" in secret.text
    (playground.root / ".venv").mkdir()
    frozen = await tools.run("touch .venv/x")
    assert "只開放讀取的地方" in frozen.text
    missing = await tools.run(f"cat {playground.home}/no-such-file")
    assert "沙箱" not in missing.text  # really missing: the tool's own words are the truth


async def test_submodule_configs_are_blank_too(playground: Playground) -> None:
    modules = playground.root / ".git" / "modules" / "lib"
    modules.mkdir(parents=True)
    (modules / "config").write_text('[remote "o"]\n url = https://u:tok@x/secret/sub\n')
    tools = agent(playground, bubblewrap(playground))
    result = await tools.run("cat .git/modules/lib/config; echo end")
    assert "secret/sub" not in result.text and "end" in result.text


async def test_a_plain_listing_gets_no_note(playground: Playground) -> None:
    tools = agent(playground, bubblewrap(playground))
    result = await tools.run(f"ls -a; echo {playground.home}/.ssh")
    assert ".env" in result.text and "sandbox:" not in result.text
