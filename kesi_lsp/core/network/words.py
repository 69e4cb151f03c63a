"""The proxy's refusals in words: the 403 body a command sees, the lines its result ends with."""

from __future__ import annotations

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.network.proxy import ChannelLimits, Refusal


def _limit_count(limits: ChannelLimits, which: str) -> int:
    counts = {
        "connections": limits.max_connections,
        "open": limits.max_open,
        "bytes": limits.max_bytes,
        "seconds": int(limits.max_seconds),
    }
    return counts.get(which, 0)


def why(refusal: Refusal, limits: ChannelLimits, locale: Locale) -> str:
    """Why `refusal` happened, as a clause."""
    if refusal.why == "limit":
        count = _limit_count(limits, refusal.detail)
        detail = text(f"network.limit.{refusal.detail}", locale, count=count)
        return text("network.why.limit", locale, detail=detail)
    if refusal.why == "denied":
        return text("network.why.denied", locale, pattern=refusal.detail)
    if refusal.why == "unlisted":
        return text("network.why.unlisted", locale)
    return text(f"network.why.{refusal.why}", locale, detail=refusal.detail)


def forbidden_body(refusal: Refusal, mode: str, limits: ChannelLimits, locale: Locale) -> str:
    """The body of the proxy's 403: the host, why, and the setting."""
    reason = why(refusal, limits, locale)
    return text("network.forbidden", locale, host=refusal.host, why=reason, mode=mode)


def refused_line(refusal: Refusal, limits: ChannelLimits, locale: Locale) -> str:
    """One line of the tool result: "KeSi's sandbox refused network access to example.org"."""
    reason = why(refusal, limits, locale)
    if refusal.why == "limit":
        return text("network.refused_limit", locale, why=reason)
    return text("network.refused", locale, host=refusal.host, why=reason)
