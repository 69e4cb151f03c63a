"""Inside the real bubblewrap sandbox, through the proxy: an allowed host works, another is
refused with a 403 naming it, the result lists it, and nothing gets out any other way."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core import AuditLog, AuditTrail, redactor_for
from kesi_lsp.core.approval import Choice
from kesi_lsp.core.network.access import NetworkAccess
from tests.core.network.networked import HostAnswers, networked
from tests.core.network.servers import access_to, site
from tests.core.sandbox.conftest import Playground

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]


async def test_curl_reaches_an_allowed_host_and_gets_a_403_naming_another(
    playground: Playground, pages: Path
) -> None:
    with site(pages) as web:
        me = networked(
            playground,
            access_to(allowed_test=web.port, other_test=web.port),
            sandbox_network="allowList",
            network_allow=("allowed.test",),
        )
        ok = await me.run("curl -sS http://allowed.test/hello.txt")
        refused = await me.run("curl -sS -i http://other.test/hello.txt")
    assert not ok.is_error, ok.text
    assert "hello from the allowed host" in ok.text
    assert web.hits == ["/hello.txt"]  # the refused request never reached the server
    assert "403 Forbidden" in refused.text
    assert "KeSi's sandbox refused network access to other.test" in refused.text
    assert 'kesi.sandboxNetwork ("allowList")' in refused.text
    assert refused.text.count("(not in kesi.sandboxNetworkAllow).") == 1  # the result's line


async def test_python_urllib_and_a_connect_tunnel_go_through_the_proxy(
    playground: Playground, pages: Path
) -> None:
    script = (
        "import urllib.request, urllib.error\n"
        "print(urllib.request.urlopen('http://allowed.test/hello.txt').read().decode())\n"
        "try:\n"
        "    urllib.request.urlopen('http://denied.test/hello.txt')\n"
        "except urllib.error.HTTPError as e:\n"
        "    print('status', e.code, e.read().decode())\n"
    )
    (playground.root / "fetch.py").write_text(script)
    with site(pages) as web:
        me = networked(
            playground,
            access_to(allowed_test=web.port, denied_test=web.port),
            network_allow=("*.test",),
            network_deny=("denied.test",),
        )
        fetched = await me.run("python3 fetch.py")
        tunnel = await me.run("curl -sS --proxytunnel http://allowed.test/hello.txt")
    assert "hello from the allowed host" in fetched.text
    assert "status 403 KeSi's sandbox refused network access to denied.test" in fetched.text
    assert "kesi.sandboxNetworkDeny has denied.test" in fetched.text
    assert "hello from the allowed host" in tunnel.text, tunnel.text


async def test_an_allowed_name_that_resolves_to_this_machine_is_refused(
    playground: Playground, pages: Path
) -> None:
    """The real resolver says localhost is 127.0.0.1: a host service, never reached, even
    though the allow-list names it."""
    with site(pages) as web:
        me = networked(playground, NetworkAccess(), network_allow=("localhost",))
        result = await me.run(f"curl -sS -i --noproxy '' http://localhost:{web.port}/hello.txt")
    assert web.hits == []
    assert "403 Forbidden" in result.text
    assert "refused network access to localhost (it resolves to 127.0.0.1" in result.text


async def test_raw_sockets_and_dns_do_not_get_out(playground: Playground) -> None:
    probe = (
        "import socket\n"
        "for what, call in (('raw', lambda: socket.create_connection(('1.1.1.1', 53), 3)),\n"
        "                   ('dns', lambda: socket.getaddrinfo('pypi.org', 443))):\n"
        "    try:\n"
        "        call(); print(what, 'OPEN')\n"
        "    except OSError as e:\n"
        "        print(what, 'closed', e)\n"
    )
    (playground.root / "probe.py").write_text(probe)
    me = networked(playground, NetworkAccess(), network_allow=("*",))
    result = await me.run("python3 probe.py")
    assert "raw closed" in result.text and "dns closed" in result.text, result.text
    assert "OPEN" not in result.text


async def test_mode_off_has_no_proxy_at_all(playground: Playground, pages: Path) -> None:
    with site(pages) as web:
        me = networked(
            playground,
            access_to(allowed_test=web.port),
            sandbox_network="off",
            network_allow=("allowed.test",),
        )
        result = await me.run("echo [$HTTPS_PROXY]; curl -sS http://allowed.test/hello.txt")
    assert "[]" in result.text and "hello" not in result.text
    assert web.hits == []


async def test_asked_for_this_session_the_next_command_gets_through(
    playground: Playground, pages: Path
) -> None:
    answers = HostAnswers(Choice.ALLOW_SESSION)
    with site(pages) as web:
        me = networked(playground, access_to(new_test=web.port), answers)
        first = await me.run("curl -sS -o /dev/null -w '%{http_code}\\n' http://new.test/hello.txt")
        again = await me.run("curl -sS http://new.test/hello.txt")
    assert answers.asked == ["new.test"]
    assert "403" in first.text
    assert "The user allowed network access to new.test for this session" in first.text
    assert "hello from the allowed host" in again.text and "refused" not in again.text
    assert me.ctx.session.grants.hosts == {"new.test"}


async def test_answered_no_the_model_is_told_and_not_asked_again(
    playground: Playground, pages: Path, tmp_path: Path
) -> None:
    answers = HostAnswers(Choice.DENY)
    log = AuditLog(tmp_path / "audit")
    with site(pages) as web:
        me = networked(playground, access_to(new_test=web.port), answers)
        me.ctx.audit = AuditTrail(log, playground.root, "run-1", redactor_for({}, "en"))
        first = await me.run("curl -sS http://new.test/hello.txt")
        again = await me.run("curl -sS http://new.test/hello.txt")
    assert log.flush()
    network = [r for r in log.records(playground.root) if r["kind"] == "network"]
    assert [(r["host"], r["allowed"], r["decided_by"], r.get("answer")) for r in network] == [
        ("new.test", False, "user", "deny"),  # the question, answered
        ("new.test", False, "session", None),  # the second refusal, not asked again
    ]
    assert network[0]["command"] == "curl -sS http://new.test/hello.txt"
    assert answers.asked == ["new.test"]  # once per host
    assert "The user did not allow network access to new.test. Do not try" in first.text
    assert "already refused network access to new.test" in again.text
    assert web.hits == []


async def test_allowed_always_shows_the_rule_to_add(playground: Playground, pages: Path) -> None:
    answers = HostAnswers(Choice.ALLOW_ALWAYS)
    notices: list[object] = []
    with site(pages) as web:
        me = networked(
            playground, access_to(new_test=web.port), answers, network_allow=("pypi.org",)
        )
        me.ctx.emit = notices.append
        first = await me.run("curl -sS http://new.test/hello.txt")
    assert "The user allowed network access to new.test always" in first.text
    shown = [getattr(n, "text", "") for n in notices if "kesi.sandboxNetworkAllow" in str(n)]
    assert shown and '"kesi.sandboxNetworkAllow": ["pypi.org", "new.test"]' in shown[0]
