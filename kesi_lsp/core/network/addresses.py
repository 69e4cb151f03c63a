"""Where the proxy may connect: public addresses only, and the names that lead there.

A name on the allow-list can still resolve to this machine (`localhost`, a DNS record an
attacker controls pointing at 127.0.0.1 or 10.0.0.5) or to a cloud's metadata service, which
hands out credentials to whoever asks. So the proxy judges the *address* after resolving,
and refuses loopback, private, link-local, carrier-grade NAT, multicast, reserved and
unspecified addresses and the metadata services, for IPv4, IPv6 and IPv4 inside IPv6.

`Resolver` is the seam: the system's resolver (`SystemResolver`), or for tests a fixed map
from test names to loopback servers (`MappedResolver`), whose targets are trusted because
the test put them there. The map comes only from the server's own environment
(`KESI_TEST_NETWORK_HOSTS`), which a project cannot set.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

TEST_HOSTS_VARIABLE: Final = "KESI_TEST_NETWORK_HOSTS"

METADATA: Final = frozenset(
    {
        ipaddress.ip_address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack
        ipaddress.ip_address("169.254.170.2"),  # AWS ECS task credentials
        ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud
        ipaddress.ip_address("fd00:ec2::254"),  # AWS over IPv6
    }
)
SHARED: Final = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT, not public


def is_host_service(address: str) -> bool:
    """True for an address the proxy must never reach: this machine, its private network,
    link-local and metadata addresses, and anything not globally routable."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped or ip.sixtofour
        if mapped is not None:
            return is_host_service(str(mapped))
    if ip in METADATA:
        return True
    if isinstance(ip, ipaddress.IPv4Address) and ip in SHARED:
        return True
    return (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global
    )


@dataclass(frozen=True)
class Target:
    """One address to connect to; `trusted` skips the host-service check (the test map)."""

    address: str
    port: int
    trusted: bool = False


class Resolver(Protocol):
    async def resolve(self, host: str, port: int) -> Sequence[Target]:
        """The addresses of `host` (empty when it does not resolve)."""
        ...


class SystemResolver:
    """The machine's own resolver (getaddrinfo, in a thread: it blocks)."""

    async def resolve(self, host: str, port: int) -> Sequence[Target]:
        loop = asyncio.get_running_loop()
        try:
            infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            return []
        seen: list[Target] = []
        for _family, _type, _proto, _name, sockaddr in infos:
            target = Target(str(sockaddr[0]), int(sockaddr[1]))
            if target not in seen:
                seen.append(target)
        return seen


@dataclass(frozen=True)
class MappedResolver:
    """Test names to loopback servers (`name=127.0.0.1:8080`, any port of the name goes
    there); other names go to `fallback`, with every check."""

    hosts: Mapping[str, tuple[str, int]]
    fallback: Resolver

    async def resolve(self, host: str, port: int) -> Sequence[Target]:
        mapped = self.hosts.get(host.lower().rstrip("."))
        if mapped is not None:
            return [Target(mapped[0], mapped[1], trusted=True)]
        return await self.fallback.resolve(host, port)


def parse_test_hosts(raw: str) -> dict[str, tuple[str, int]]:
    """`a.test=127.0.0.1:8080,b.test=127.0.0.1:9090`; malformed entries are skipped."""
    hosts: dict[str, tuple[str, int]] = {}
    for entry in raw.split(","):
        name, _, target = entry.strip().partition("=")
        address, _, port = target.rpartition(":")
        if name and address and port.isdigit():
            hosts[name.lower().rstrip(".")] = (address.strip("[]"), int(port))
    return hosts


def resolver_for(environ: Mapping[str, str]) -> Resolver:
    """The system resolver, behind the test map when the server's environment has one."""
    system = SystemResolver()
    raw = environ.get(TEST_HOSTS_VARIABLE, "")
    hosts = parse_test_hosts(raw) if raw else {}
    return MappedResolver(hosts, system) if hosts else system
