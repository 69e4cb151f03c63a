"""A session's way to the network: the proxy channel each sandboxed command gets.

The proxy only means something for a command that has no network of its own, so a channel is
opened only under a confining sandbox (bubblewrap: a UNIX socket bound in; Seatbelt: a
loopback port its profile allows) and only when `sandboxNetwork` is not `off`. Without a
sandbox a command already has the machine's whole network (and KeSi says so); with `off`
it has none, exactly as before the proxy existed.

The judge reads the session's settings and grants each time a request arrives, so a host the
user allowed a moment ago is allowed for the very next connection.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from kesi_lsp.core.network.addresses import Resolver, SystemResolver, resolver_for
from kesi_lsp.core.network.proxy import Channel, ChannelLimits, Judge, Refusal
from kesi_lsp.core.network.words import forbidden_body
from kesi_lsp.core.sandbox import NetworkBridge, Sandbox
from kesi_lsp.core.session import Grants
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.settings.network import HostVerdict, first_match, host_verdict, normalize_host

Transport = Literal["unix", "tcp", "none"]
GRACE_SECONDS = 10.0


def transport_of(sandbox: Sandbox) -> Transport:
    """How a command in `sandbox` reaches the proxy (none: it has no use for one)."""
    if sandbox.kind == "bubblewrap":
        return "unix"
    if sandbox.kind == "seatbelt":
        return "tcp"
    return "none"


class Judged(Protocol):
    """What a channel judges by: a `Session` (a command's), or the `LivePolicy` of a program
    that outlives one run (an MCP server's)."""

    @property
    def settings(self) -> AgentSettings: ...

    @property
    def grants(self) -> Grants: ...


@dataclass
class LivePolicy:
    """The settings and grants an MCP server's channel judges by. The server starts before any
    run and lives across many, so it follows the session of the run that last called it
    (`follow`): a host the user allowed for the session is allowed for the server too."""

    settings: AgentSettings
    grants: Grants = field(default_factory=Grants)

    def follow(self, session: Judged) -> None:
        self.settings, self.grants = session.settings, session.grants


def judge_for(session: Judged) -> Judge:
    def judge(host: str) -> tuple[HostVerdict, str | None]:
        settings, name = session.settings, normalize_host(host)
        verdict = host_verdict(
            name, settings.network_allow, settings.network_deny, session.grants.hosts
        )
        pattern = first_match(settings.network_deny, name) if verdict == "deny" else None
        return verdict, pattern

    return judge


@dataclass(frozen=True)
class OpenChannel:
    """A command's channel and the bridge its sandbox binds in."""

    channel: Channel
    bridge: NetworkBridge


@dataclass
class NetworkAccess:
    """Opens a proxy channel per command of a session (see the module's docstring)."""

    resolver: Resolver = field(default_factory=SystemResolver)
    limits: ChannelLimits = field(default_factory=ChannelLimits)

    @classmethod
    def for_environment(cls, environ: Mapping[str, str]) -> NetworkAccess:
        return cls(resolver_for(environ))

    async def open(
        self, session: Judged, sandbox: Sandbox, *, seconds: float | None = None
    ) -> OpenChannel | None:
        """A listening channel for the next command, or None (no sandbox, or mode off).
        It serves as long as the command may run: `seconds` (a background task's limit),
        else the command timeout, and a grace after."""
        settings = session.settings
        transport = transport_of(sandbox)
        if settings.sandbox_network == "off" or transport == "none":
            return None
        lasts = settings.command_timeout if seconds is None else seconds
        limits = replace(self.limits, max_seconds=lasts + GRACE_SECONDS)
        locale, mode = settings.locale, settings.sandbox_network

        def words(refusal: Refusal) -> str:
            return forbidden_body(refusal, mode, limits, locale)

        channel = Channel(judge_for(session), self.resolver, words, limits)
        if transport == "unix":
            return OpenChannel(channel, NetworkBridge(socket_path=await channel.listen_unix()))
        return OpenChannel(channel, NetworkBridge(port=await channel.listen_tcp()))
