"""API failures in words for the human (Day 12 `describe_api_error`).

The reader here is the user, not the model: the model never saw the failed request. The more
specific classes are checked first, or the 429 hint would be unreachable behind the general
status error. Errors the SDK does not wrap (a connection reset in the middle of a stream comes
up from the HTTP layer, Day 18) fall through to the generic "type: message" form.
"""

from __future__ import annotations

import anthropic
import httpx2

from kesi_lsp.catalog import Editor, Locale, reset_command, text
from kesi_lsp.core.watchdog import StreamStalledError


def _detail(exc: BaseException) -> str:
    if isinstance(exc, anthropic.APIStatusError) and exc.api_message:
        return exc.api_message
    return str(exc)


def _underlying(exc: BaseException, locale: Locale) -> str:
    """The first non-empty message along the cause chain (an async ReadError has none)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if str(current).strip():
            return str(current)
        current = current.__cause__ or current.__context__
    return text("loop.api.no_detail", locale)


def describe_api_error(exc: BaseException, locale: Locale, editor: Editor = "lsp") -> str:
    """The seed's human message for an API (or transport) failure; `editor` names the command
    that starts over where the seed says /reset."""
    if isinstance(exc, StreamStalledError):
        return text("loop.api.stalled", locale, seconds=f"{exc.seconds:g}")
    if isinstance(exc, anthropic.RateLimitError):
        return text("loop.api.rate_limit", locale)
    if isinstance(exc, anthropic.OverloadedError):
        return text("loop.api.overloaded", locale)
    if isinstance(exc, anthropic.BadRequestError):
        return text(
            "loop.api.bad_request",
            locale,
            detail=_detail(exc),
            reset=reset_command(editor, locale),
        )
    if isinstance(exc, anthropic.APITimeoutError | httpx2.TimeoutException):
        return text("loop.api.timeout", locale)
    if isinstance(exc, anthropic.APIConnectionError):
        return text("loop.api.connection", locale, detail=str(exc))
    if isinstance(exc, anthropic.APIStatusError):
        if exc.status_code < 400:
            # An `error` event inside a 200 stream: the SDK raises it with the stream's status.
            kind = exc.type or "error"
            return text("loop.api.stream_error", locale, kind=kind, detail=_detail(exc))
        return text("loop.api.status", locale, status=exc.status_code, detail=_detail(exc))
    if isinstance(exc, httpx2.TransportError):
        return text(
            "loop.api.connection_lost",
            locale,
            kind=type(exc).__name__,
            detail=_underlying(exc, locale),
        )
    return text("loop.api.other", locale, kind=type(exc).__name__, detail=_underlying(exc, locale))
