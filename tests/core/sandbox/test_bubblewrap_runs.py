"""The Linux sandbox, tested by running commands in it (the seed's Day 15 check, on Linux).

Like the seed's check, these launch the sandbox's argv directly and bypass the permission gate
on purpose: the question is whether the operating system refuses, not whether the string check
does. Each refusal has a control run without the sandbox, so it is the sandbox that refused.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kesi_lsp.core.sandbox import NoSandbox
from kesi_lsp.core.sandbox.bubblewrap import Limits
from tests.core.sandbox.conftest import (
    FAKE_KEY,
    SECRET,
    Playground,
    bubblewrap,
)

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]
HAS_CURL = Path("/usr/bin/curl").exists()
HAS_SHADOW = Path("/etc/shadow").exists()
HOST_SCRATCH = "/tmp/kesi-scratch"


def on_host(path: str) -> bool:
    return Path(path).exists()


def own_cmdline() -> str:
    return Path("/proc/self/cmdline").read_bytes().replace(b"\0", b" ").decode()


async def test_the_workspace_is_readable_and_writable_even_with_a_quote_in_its_name(
    playground: Playground,
) -> None:
    box = bubblewrap(playground)
    ran = await playground.run(box, "cat note.txt && echo new > new.txt && cat new.txt")
    assert ran.code == 0, ran.output
    assert ran.output == "a file inside the workspace\nnew\n"
    assert (playground.root / "new.txt").read_text() == "new\n"


async def test_the_toolchain_still_runs(playground: Playground) -> None:
    ran = await playground.run(bubblewrap(playground), "python3 -c 'print(1+1)'")
    assert (ran.code, ran.output) == (0, "2\n")


async def test_home_secrets_are_out_of_reach(playground: Playground) -> None:
    box = bubblewrap(playground)
    for command in ("cat ~/.ssh/config", "cat ~/.ssh/id_ed25519", "ls ~/.ssh"):
        ran = await playground.run(box, command)
        assert ran.code != 0, command
        assert "IdentityFile" not in ran.output and "PRIVATE KEY" not in ran.output
    control = await playground.run(NoSandbox(), "cat ~/.ssh/config")
    assert "IdentityFile" in control.output  # without the sandbox the same read works


async def test_the_neighbouring_project_is_out_of_reach(playground: Playground) -> None:
    box = bubblewrap(playground)
    secret = playground.outside / "secret.txt"
    for command in (f"cat '{secret}'", "cat linked-secret.txt", f"ls '{playground.outside}'"):
        ran = await playground.run(box, command)
        assert ran.code != 0, command
        assert SECRET not in ran.output
    control = await playground.run(NoSandbox(), f"cat '{secret}'")
    assert SECRET in control.output  # "exactly the hole Day 11 left"


async def test_secrets_inside_the_workspace_are_unreadable(playground: Playground) -> None:
    box = bubblewrap(playground)
    for path, content in ((".env", FAKE_KEY), (".env.local", "another"), ("config/.env", "nested")):
        ran = await playground.run(box, f"cat {path}")
        assert ran.code != 0, path
        assert content not in ran.output
        assert "Permission denied" in ran.output
    python = "python3 -c \"print(open('.env').read())\""  # not only cat: any program
    ran = await playground.run(box, python)
    assert ran.code != 0 and FAKE_KEY not in ran.output
    control = await playground.run(NoSandbox(), "cat .env")
    assert FAKE_KEY in control.output


async def test_a_secret_created_just_now_is_covered_by_the_next_command(
    playground: Playground,
) -> None:
    box = bubblewrap(playground)
    (playground.root / "sub").mkdir()
    (playground.root / "sub" / ".env.production").write_text("LATE=fake-late-key\n")
    ran = await playground.run(box, "cat sub/.env.production")
    assert ran.code != 0 and "fake-late-key" not in ran.output


async def test_nested_git_config_is_blank(playground: Playground) -> None:
    ran = await playground.run(bubblewrap(playground), "cat config/.git/config")
    assert "secret/repo" not in ran.output


async def test_writes_outside_the_workspace_fail(playground: Playground) -> None:
    box = bubblewrap(playground)
    hacked = playground.outside / "hacked.txt"
    ran = await playground.run(box, f"echo x > '{hacked}'")
    assert ran.code != 0 and not hacked.exists()
    ran = await playground.run(box, "touch /usr/kesi-planted")
    assert ran.code != 0 and "Read-only file system" in ran.output
    ran = await playground.run(box, "touch /kesi-planted")
    assert ran.code != 0
    # Home and /tmp are private scratch space: writable, and gone afterwards.
    ran = await playground.run(
        box, "echo x > ~/.bashrc && echo y > /tmp/kesi-scratch && cat ~/.bashrc"
    )
    assert (ran.code, ran.output) == (0, "x\n")
    assert not (playground.home / ".bashrc").exists()
    assert not on_host(HOST_SCRATCH)


@pytest.fixture
async def listener() -> AsyncIterator[int]:
    """A server on 127.0.0.1 outside the sandbox; no packet leaves the machine."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.0 200 OK\r\n\r\nreached\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield port


async def test_the_network_is_unreachable(playground: Playground, listener: int) -> None:
    box = bubblewrap(playground)
    python = f"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {listener}), 2)'"
    ran = await playground.run(box, python)
    assert ran.code != 0, ran.output
    curl = f"curl -sS --max-time 5 http://127.0.0.1:{listener}/"
    if HAS_CURL:
        ran = await playground.run(box, curl)
        assert ran.code != 0 and "reached" not in ran.output
        control = await playground.run(NoSandbox(), curl)
        assert "reached" in control.output
    ran = await playground.run(
        box, "python3 -c 'import socket; socket.getaddrinfo(\"pypi.org\", 443)'"
    )
    assert ran.code != 0


async def test_credentials_are_scrubbed_inside_and_the_rest_kept(playground: Playground) -> None:
    check = (
        'test -z "$ANTHROPIC_API_KEY" && test -z "$GITHUB_TOKEN" '
        '&& test "$KESI_VISIBLE_TEST" = visible'
    )
    ran = await playground.run(bubblewrap(playground), check)
    assert ran.code == 0, ran.output


async def test_the_server_and_its_environment_are_invisible(playground: Playground) -> None:
    """The host's processes (this pytest standing in for the server, whose environment holds
    the API key) are not in the sandbox's PID namespace: nothing to read, nothing to signal."""
    ours = own_cmdline()
    ran = await playground.run(
        bubblewrap(playground),
        "ls /proc | grep -c '^[0-9]'; cat /proc/[0-9]*/cmdline | tr '\\0' ' '",
    )
    count, _, cmdlines = ran.output.partition("\n")
    assert int(count) < 10, ran.output  # only the sandbox's own few processes
    assert ours not in cmdlines


async def test_unreadable_system_files_stay_unreadable(playground: Playground) -> None:
    if not HAS_SHADOW:
        pytest.skip("no /etc/shadow on this system")
    ran = await playground.run(bubblewrap(playground), "cat /etc/shadow")
    assert ran.code != 0 and "root:" not in ran.output


async def test_hard_link_reaches_its_inode_known_limitation(playground: Playground) -> None:
    """Pinned, as in the seed (check 17): the fence is about paths, not where a file came from.

    If this starts failing, the limitation is gone: update zones.py / the report, then this test.
    """
    box = bubblewrap(playground)
    ran = await playground.run(box, "cat hardlinked-secret.txt")
    assert SECRET in ran.output
    ran = await playground.run(box, "printf 'rewritten\\n' > hardlinked-secret.txt")
    assert ran.code == 0
    assert (playground.outside / "secret.txt").read_text() == "rewritten\n"


async def test_a_workspace_too_large_to_scan_is_refused_not_half_hidden(
    playground: Playground,
) -> None:
    for index in range(20):
        (playground.root / f"file{index}.txt").write_text("x")
    box = bubblewrap(playground, Limits(max_entries=10))
    ran = await playground.run(box, "touch ran.txt")
    assert ran.code == 126
    assert "too large" in ran.output
    assert not (playground.root / "ran.txt").exists()


async def test_pytest_cache_stays_writable_and_tool_state_does_not(playground: Playground) -> None:
    (playground.root / ".pytest_cache").mkdir()
    (playground.root / "node_modules" / "pkg").mkdir(parents=True)
    box = bubblewrap(playground)
    ran = await playground.run(box, "echo ok > .pytest_cache/x && cat .pytest_cache/x")
    assert (ran.code, ran.output) == (0, "ok\n")
    ran = await playground.run(box, "ls node_modules && touch node_modules/pkg/evil.js")
    assert ran.code != 0
    assert ran.output.startswith("pkg\n") and "Read-only file system" in ran.output
    assert not (playground.root / "node_modules" / "pkg" / "evil.js").exists()


async def test_the_sandbox_message_follows_the_locale(playground: Playground) -> None:
    for index in range(20):
        (playground.root / f"file{index}.txt").write_text("x")
    chinese = bubblewrap(playground, Limits(max_entries=10), locale="zh-TW")
    ran = await playground.run(chinese, "true")
    assert "工作目錄太大" in ran.output
