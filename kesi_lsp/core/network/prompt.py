"""What the model is told about the sandbox's network (Day 16: the truth, before it guesses).

The sandbox line says commands cannot reach the network; with the proxy on, that is true of
DNS and direct connections, not of HTTP(S) through the proxy, so one more line says which
hosts work, that others are refused with a 403 named in the result, and what happens then.
"""

from __future__ import annotations

from kesi_lsp.catalog import text
from kesi_lsp.core.network.access import transport_of
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.settings.agent import AgentSettings


def network_line(sandbox: Sandbox, settings: AgentSettings) -> str | None:
    """The line, or None when commands get no proxy (no sandbox, or mode off)."""
    if settings.sandbox_network == "off" or transport_of(sandbox) == "none":
        return None
    locale = settings.locale
    sep = text("common.list_sep", locale)
    hosts = sep.join(settings.network_allow) or text("common.none", locale)
    then = text(f"network.prompt_line.{settings.sandbox_network}", locale)
    return text("network.prompt_line", locale, hosts=hosts, then=then)
