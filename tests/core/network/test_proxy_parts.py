"""The proxy's parts on their own: addresses, request heads, TLS names, the Seatbelt rule."""

from __future__ import annotations

import asyncio
import socket
import ssl

import pytest

from kesi_lsp.core.network.addresses import is_host_service, parse_test_hosts
from kesi_lsp.core.network.http import BadRequestError, parse_request
from kesi_lsp.core.network.proxy import Channel
from kesi_lsp.core.network.sockets import local_hop
from kesi_lsp.core.network.tls import server_name
from kesi_lsp.core.sandbox.seatbelt import profile
from tests.core.network.servers import access_to


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "192.168.1.1",
        "172.16.0.9",
        "169.254.169.254",
        "100.100.100.200",
        "100.64.0.1",
        "0.0.0.0",
        "::1",
        "fe80::1",
        "fd00:ec2::254",
        "::ffff:127.0.0.1",
        "224.0.0.1",
        "not an address",
    ],
)
def test_host_services_are_never_reached(address: str) -> None:
    assert is_host_service(address)


def test_public_addresses_are_reached() -> None:
    assert not is_host_service("151.101.0.223")
    assert not is_host_service("2a04:4e42::223")


def test_a_plain_request_goes_on_in_origin_form_and_closes() -> None:
    head = (
        b"GET http://pypi.test:8080/simple/?x=1 HTTP/1.1\r\nHost: pypi.test:8080\r\n"
        b"Proxy-Connection: keep-alive\r\nProxy-Authorization: Basic eA==\r\n\r\n"
    )
    request = parse_request(head)
    assert (request.host, request.port) == ("pypi.test", 8080)
    assert request.head is not None
    assert request.head.startswith(b"GET /simple/?x=1 HTTP/1.1\r\nHost: pypi.test:8080\r\n")
    assert b"Proxy-" not in request.head and request.head.endswith(b"Connection: close\r\n\r\n")


def test_connect_targets_and_bad_requests() -> None:
    assert parse_request(b"CONNECT [2001:db8::1]:443 HTTP/1.1\r\n\r\n").host == "2001:db8::1"
    assert parse_request(b"CONNECT github.com:443 HTTP/1.1\r\n\r\n").port == 443
    for bad in (b"GET /x HTTP/1.1\r\n\r\n", b"CONNECT :443 HTTP/1.1\r\n\r\n", b"junk\r\n\r\n"):
        with pytest.raises(BadRequestError):
            parse_request(bad)


def _client_hello(name: str) -> bytes:
    context = ssl.create_default_context()
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname=name)
    with pytest.raises(ssl.SSLWantReadError):
        tls.do_handshake()
    return outgoing.read()


def test_the_tls_name_is_read_from_a_real_client_hello() -> None:
    assert server_name(_client_hello("files.pythonhosted.org")) == "files.pythonhosted.org"
    assert server_name(b"GET / HTTP/1.1\r\n") is None


async def test_a_tunnel_whose_tls_name_is_another_host_is_cut_and_reported() -> None:
    """Domain fronting: CONNECT to an allowed host, then ask its server for another name."""
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    access = access_to(allowed_test=port)
    channel = Channel(lambda host: ("allow", None), access.resolver, lambda r: "no")
    path = await channel.listen_unix()
    reader, writer = await asyncio.open_unix_connection(path)
    writer.write(b"CONNECT allowed.test:443 HTTP/1.1\r\nHost: allowed.test:443\r\n\r\n")
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 200")
    writer.write(_client_hello("evil.example"))
    assert await asyncio.wait_for(reader.read(), 10) == b""  # closed, nothing forwarded
    refusals = await channel.close()
    server.close()
    assert [(r.host, r.why, r.detail) for r in refusals] == [
        ("allowed.test", "sni", "evil.example")
    ]


def test_the_test_map_reads_names_and_ports() -> None:
    assert parse_test_hosts("a.test=127.0.0.1:80, B.test.=[::1]:9,bad") == {
        "a.test": ("127.0.0.1", 80),
        "b.test": ("::1", 9),
    }


def test_seatbelt_allows_only_the_proxy_port() -> None:
    closed = profile(0)
    assert "(deny network*)" in closed and "network-outbound" not in closed
    opened = profile(0, proxy_port=40123)
    assert opened.endswith(
        '(deny network*)\n(allow network-outbound (remote tcp "localhost:40123"))'
    )


@pytest.mark.skipif(not hasattr(socket, "TCP_CONGESTION"), reason="Linux's socket option")
def test_the_commands_loopback_hop_uses_reno_whatever_the_default() -> None:
    """The command's side of a relay is a loopback hop, where a pacing default (BBR) only
    costs (bench/README §12): it is switched to reno; a UNIX socket is left as it is."""
    with (
        socket.create_server(("127.0.0.1", 0)) as listener,
        socket.create_connection(listener.getsockname()),
    ):
        accepted, _ = listener.accept()
        with accepted:
            local_hop(accepted)
            name = accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16)
    assert name.rstrip(b"\0") == b"reno"
    left, right = socket.socketpair()
    with left, right:
        local_hop(left)  # no such option on a UNIX socket: nothing happens
