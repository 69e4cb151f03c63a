"""The only place that constructs `anthropic.AsyncAnthropic`.

The key and base URL come from the session's settings, else from the environment mapping the
host hands over (the core never reads `os.environ`). The SDK keeps its own retry policy (2
retries, exponential backoff, `retry-after` honoured, Day 12), and a client middleware — which
the SDK runs once per HTTP attempt, inside its retry loop — turns every failed attempt that will
be retried into a `Notice(kind="retry")`, so the user sees the wait instead of a frozen screen.
"""

from __future__ import annotations

import contextvars
import functools
import ssl
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, Final

import anthropic
import httpx2
from anthropic import APIRequest, AsyncAnthropic, AsyncAPIResponse, AsyncCallNext, Middleware
from anthropic.lib.streaming import AsyncMessageStream

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.errors import MissingApiKeyError
from kesi_lsp.core.events import Notice
from kesi_lsp.core.settings.agent import AgentSettings

DEFAULT_BASE_URL: Final = "https://api.anthropic.com"
DEFAULT_MAX_RETRIES: Final = anthropic.DEFAULT_MAX_RETRIES
WINDOW_LOOKUP_SECONDS: Final = 10.0

NoticeSink = Callable[[Notice], None]

# Where the retry notices of the request running in this task go (set around each stream).
_notices: contextvars.ContextVar[tuple[NoticeSink, Locale] | None] = contextvars.ContextVar(
    "kesi_retry_notices", default=None
)


def will_retry(status: int, headers: Mapping[str, str]) -> bool:
    """The SDK's documented retry policy for a failed response (Day 12; anthropic._base_client).

    `x-should-retry` decides when present; otherwise 408, 409, 429 and every 5xx are retried.
    """
    verdict = headers.get("x-should-retry")
    if verdict == "true":
        return True
    if verdict == "false":
        return False
    return status in (408, 409, 429) or status >= 500


def _retry_after(headers: Mapping[str, str]) -> float | None:
    value = headers.get("retry-after")
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and 0 < seconds <= 60 else None


def _error_type(response: httpx2.Response) -> str:
    try:
        body = response.json()
    except (ValueError, httpx2.ResponseNotRead):
        return ""
    error = body.get("error") if isinstance(body, dict) else None
    kind = error.get("type") if isinstance(error, dict) else None
    return kind if isinstance(kind, str) else ""


class _RetryNotices(Middleware):
    """Announce each attempt the SDK is about to retry."""

    def __init__(self, max_retries: int) -> None:
        self._max_retries = max_retries

    async def handle_async(
        self, request: APIRequest, call_next: AsyncCallNext
    ) -> AsyncAPIResponse[Any]:
        limit = request.max_retries if isinstance(request.max_retries, int) else self._max_retries
        retries_left = request.retries_taken < limit
        try:
            response = await call_next(request)
        except anthropic.APITimeoutError:
            if retries_left:
                self._announce(request, limit, "loop.retry_reason.timeout", None)
            raise
        except anthropic.APIConnectionError:
            if retries_left:
                self._announce(request, limit, "loop.retry_reason.connection", None)
            raise
        http = response.http_response
        if not http.is_success and retries_left and will_retry(http.status_code, http.headers):
            await http.aread()
            reason = f"{http.status_code} {_error_type(http)}".strip()
            self._announce(request, limit, reason, _retry_after(http.headers))
        return response

    @staticmethod
    def _announce(request: APIRequest, limit: int, reason: str, wait: float | None) -> None:
        target = _notices.get()
        if target is None:
            return
        emit, locale = target
        if reason.startswith("loop."):
            reason = text(reason, locale)
        attempt = request.retries_taken + 1
        if wait is None:
            message = text("loop.retry", locale, reason=reason, attempt=attempt, retries=limit)
        else:
            message = text(
                "loop.retry_after",
                locale,
                reason=reason,
                seconds=f"{wait:g}",
                attempt=attempt,
                retries=limit,
            )
        emit(Notice(kind="retry", text=message))


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS context the model clients share: what httpx makes for each client by default
    (the system's certificates, or SSL_CERT_FILE / SSL_CERT_DIR), loaded once per process
    rather than for every client (27 ms each here; the suite builds thousands)."""
    return httpx2.create_ssl_context()


class ModelClient:
    """The door to the Messages API: an `AsyncAnthropic` with visible retries.

    `environ` is the host's environment mapping (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL are used
    when the settings do not say). Raises MissingApiKeyError when there is no key at all.
    `max_retries` and `timeout` default to the SDK's own (2 retries, 10 minutes); `http_client`
    to the SDK's own on a TLS context loaded once (the warm-up passes one that never goes
    through a proxy).
    """

    def __init__(
        self,
        settings: AgentSettings,
        environ: Mapping[str, str],
        *,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: float | None = None,
        http_client: httpx2.AsyncClient | None = None,
    ) -> None:
        api_key = settings.api_key or environ.get("ANTHROPIC_API_KEY") or ""
        if not api_key.strip():
            raise MissingApiKeyError(text("loop.missing_key", settings.locale))
        base_url = settings.base_url or environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL
        options: dict[str, Any] = {}
        if timeout is not None:
            options["timeout"] = timeout
        # The SDK's own HTTP client (its limits, keep-alive and proxies), on the shared context.
        options["http_client"] = http_client or anthropic.DefaultAsyncHttpxClient(verify=_tls())
        self.base_url = base_url
        self.max_retries = max_retries
        self._windows: dict[str, int | None] = {}  # model -> its window, as the API said
        self._client = AsyncAnthropic(
            api_key=api_key,
            base_url=base_url,
            max_retries=max_retries,
            middleware=[_RetryNotices(max_retries)],
            **options,
        )

    @asynccontextmanager
    async def stream(
        self, params: Mapping[str, Any], *, on_notice: NoticeSink, locale: Locale
    ) -> AsyncIterator[AsyncMessageStream[None]]:
        """Open `messages.stream(**params)`; retry notices of this request go to `on_notice`."""
        token = _notices.set((on_notice, locale))
        try:
            async with self._client.messages.stream(**params) as stream:
                yield stream
        finally:
            _notices.reset(token)

    async def model_window(self, model: str) -> int | None:
        """The context window the Models API reports for `model` (`max_input_tokens`), or None
        when it does not say: no such field, an error answer, no connection. One attempt with a
        short timeout: the run waits for it, and the known value is a good fallback. It goes on
        a connection of its own (closed after it), so the stream that follows opens its own
        connection as it did before the lookup existed (a connection reset mid-stream lost text
        already sent when the stream reused the lookup's connection). The answer is kept for the
        client's life: a second session on this client does not ask again (nor close a
        connection the first one's streams use)."""
        if model in self._windows:
            return self._windows[model]
        self._windows[model] = await self._ask_window(model)
        return self._windows[model]

    async def _ask_window(self, model: str) -> int | None:
        client = self._client.with_options(max_retries=0, timeout=WINDOW_LOOKUP_SECONDS)
        try:
            info = await client.models.retrieve(model, extra_headers={"connection": "close"})
        except anthropic.APIError:
            return None
        tokens = info.max_input_tokens
        return tokens if isinstance(tokens, int) and tokens > 0 else None

    async def aclose(self) -> None:
        """Release the HTTP connections."""
        await self._client.close()


def build_model(settings: AgentSettings, environ: Mapping[str, str]) -> ModelClient:
    """The model client for a session: `ModelClient(settings, environ)` with the SDK defaults.

    Raises MissingApiKeyError (its message says how to set the key) when there is no key.
    """
    return ModelClient(settings, environ)
