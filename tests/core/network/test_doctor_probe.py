"""The doctor's live probe of the network proxy (issue 27): it passes through a working proxy in
the real sandbox, and says what is wrong when the proxy does not start or lets a denied host
through."""

from __future__ import annotations

import pytest

from kesi_lsp.core.network import access
from kesi_lsp.core.network.probe import probe_proxy
from kesi_lsp.core.sandbox import NoSandbox
from kesi_lsp.core.settings.network import HostVerdict
from tests.core.sandbox.conftest import Playground, bubblewrap

pytestmark = pytest.mark.sandbox


@pytest.mark.usefixtures("bwrap")
async def test_a_working_proxy_passes_the_probe(playground: Playground) -> None:
    found = await probe_proxy(bubblewrap(playground), playground.root, playground.environ)
    assert found.ok, found


@pytest.mark.usefixtures("bwrap")
async def test_a_proxy_that_lets_a_denied_host_through_fails_it(
    playground: Playground, monkeypatch: pytest.MonkeyPatch
) -> None:
    def everything(session: object) -> object:
        def judge(host: str) -> tuple[HostVerdict, str | None]:
            return "allow", None

        return judge

    monkeypatch.setattr(access, "judge_for", everything)
    found = await probe_proxy(bubblewrap(playground), playground.root, playground.environ)
    assert (found.ok, found.problem, found.detail) == (False, "denied", "denied open")


async def test_without_a_sandbox_there_is_no_proxy_to_probe(playground: Playground) -> None:
    found = await probe_proxy(NoSandbox(), playground.root, playground.environ)
    assert (found.ok, found.problem) == (False, "start")
