"""A stdio server whose settings allow the network reaches it through the sandbox's allow-list
proxy, as a sandboxed command does: an allowed host works, another is refused (the call's
result and `kesi.mcp` say so), the machine's own services stay out of reach, and in mode `ask`
the user is asked to widen and the next call gets through.

Test names are mapped to a loopback web server inside the proxy's resolver (the test-only
seam, `KESI_TEST_NETWORK_HOSTS` in the server's environment): no test reaches the internet.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from kesi_lsp.core.approval import Choice
from kesi_lsp.core.mcp.listing import server_lines
from kesi_lsp.core.network.addresses import TEST_HOSTS_VARIABLE
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.settings.parse import parse_settings
from tests.core.network.conftest import pages
from tests.core.network.networked import HostAnswers
from tests.core.network.servers import Site, site
from tests.mcp.servers import Wired, bubblewrap, fault, until, wire

__all__ = ["pages"]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("bwrap") is None and not os.environ.get("KESI_CI"), reason="needs bwrap"
    ),
]


@pytest.fixture
def web(pages: Path) -> Iterator[Site]:
    with site(pages) as served:
        yield served


def _settings(**network: object) -> AgentSettings:
    base = parse_settings({"permissions": {"allow": ["mcp:fault"]}}).settings
    return dataclasses.replace(base, **network)  # type: ignore[arg-type]


@contextlib.asynccontextmanager
async def _wired(
    tmp_path: Path, web: Site, settings: AgentSettings, approver: object, network: bool = True
) -> AsyncIterator[Wired]:
    """The fault server wired with the network through the proxy, stopped when the test is done."""
    workspace = tmp_path / "work"
    workspace.mkdir()
    hosts = f"allowed.test=127.0.0.1:{web.port},other.test=127.0.0.1:{web.port}"
    environ = {**os.environ, TEST_HOSTS_VARIABLE: hosts}
    sandbox = await bubblewrap(workspace, environ)
    assert sandbox.kind == "bubblewrap"
    wired = wire(
        workspace,
        {"fault": {**fault("ok"), "network": network}},
        approver,  # type: ignore[arg-type]
        sandbox=sandbox,
        environ=environ,
        settings=settings,
    )
    try:
        await until(lambda: wired.group.servers["fault"].state != "starting", 120)
        assert wired.group.servers["fault"].state == "ready"
        yield wired
    finally:
        await wired.stop()


async def test_an_allowed_host_works_another_is_refused_and_listed(
    tmp_path: Path, web: Site
) -> None:
    settings = _settings(sandbox_network="allowList", network_allow=("allowed.test",))
    async with _wired(tmp_path, web, settings, HostAnswers()) as wired:
        ok = await wired.call("mcp__fault__fetch", {"url": "http://allowed.test/hello.txt"})
        refused = await wired.call("mcp__fault__fetch", {"url": "http://other.test/hello.txt"})
        lines = server_lines(wired.group, "en")
    assert not ok.is_error, ok.text
    assert "hello from the allowed host" in ok.text
    assert web.hits == ["/hello.txt"]  # the refused request never reached the server
    assert refused.is_error and "HTTP 403" in refused.text
    assert (
        "KeSi's sandbox refused network access to other.test (not in "
        "kesi.sandboxNetworkAllow)." in refused.text
    )  # the line after the result, as after a command
    assert "the user can add other.test there" in refused.text
    assert lines[1] == (
        "  KeSi's sandbox refused network access to other.test (not in kesi.sandboxNetworkAllow)."
    )


async def test_the_machines_own_services_are_out_of_reach(tmp_path: Path, web: Site) -> None:
    """With `"network": true` the server once shared the machine's network (bwrap's
    `--share-net`), this loopback web server included; through the proxy it has none of it."""
    settings = _settings(sandbox_network="allowList", network_allow=("allowed.test",))
    async with _wired(tmp_path, web, settings, HostAnswers()) as wired:
        direct = await wired.call(
            "mcp__fault__fetch", {"url": f"http://127.0.0.1:{web.port}/hello.txt"}
        )
    assert direct.is_error and "cannot fetch" in direct.text, direct.text
    assert web.hits == []


async def test_asked_to_widen_the_next_call_gets_through(tmp_path: Path, web: Site) -> None:
    approver = HostAnswers(Choice.ALLOW_SESSION)
    async with _wired(tmp_path, web, _settings(sandbox_network="ask"), approver) as wired:
        first = await wired.call("mcp__fault__fetch", {"url": "http://other.test/hello.txt"})
        second = await wired.call("mcp__fault__fetch", {"url": "http://other.test/hello.txt"})
    assert approver.asked == ["other.test"]
    assert first.is_error and "HTTP 403" in first.text
    assert "The user allowed network access to other.test for this session" in first.text
    assert not second.is_error and "hello from the allowed host" in second.text
    assert "refused" not in second.text  # told once, and nothing new was refused
    assert web.hits == ["/hello.txt"]


async def test_with_the_sandbox_network_off_the_server_has_none_and_says_so(
    tmp_path: Path, web: Site
) -> None:
    settings = _settings(sandbox_network="off", network_allow=("allowed.test",))
    async with _wired(tmp_path, web, settings, HostAnswers()) as wired:
        fetched = await wired.call("mcp__fault__fetch", {"url": "http://allowed.test/hello.txt"})
        lines = server_lines(wired.group, "en")
    assert fetched.is_error and "cannot fetch" in fetched.text
    assert web.hits == []
    assert lines[1] == '  network: none (it asks for it, but kesi.sandboxNetwork is "off")'
