"""The JSON-RPC errors KeSi answers an ACP client with, each saying what went wrong and how on.

Codes: the JSON-RPC ones for malformed input (-32700 parse error, -32600 invalid request,
-32602 invalid params), ACP's -32002 (resource not found) for a session this process does not
know, as the ACP SDKs treat it, and two of KeSi's own outside the reserved ranges:
`SESSION_BUSY` (a prompt while the session's previous one is still running, refused as the
LSP server refuses a second run) and `RUN_FAILED` (the run could not do its work: no API key,
the API unreachable, ...). A failed run is not an "internal error" (-32603): Zed, for one,
reads an internal error's details as a possible cancellation, and shows other codes' messages
as they are, which is what the user needs here. ACP's "authentication required" (-32000) is not
used for a missing key either: it sends clients to a sign-in flow KeSi does not have.

`data.reason` names the case for programs, as the LSP server's command errors do.
"""

from __future__ import annotations

from typing import Final

from acp import RequestError
from pydantic import ValidationError

from kesi_lsp.catalog import Locale, text

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
INVALID_PARAMS: Final = -32602
RESOURCE_NOT_FOUND: Final = -32002
SESSION_BUSY: Final = -31000
RUN_FAILED: Final = -31001

MAX_PROBLEMS: Final = 5


def invalid_params(method: str, exc: ValidationError, locale: Locale) -> RequestError:
    """An invalid-params error naming each bad field and what is wrong with it.

    Only the field and pydantic's message are kept: the full error list can hold Python
    objects that are not JSON (and echoes the input back)."""
    problems = []
    for error in exc.errors(include_url=False, include_context=False, include_input=False):
        where = ".".join(str(part) for part in error["loc"]) or "params"
        problems.append({"field": where, "problem": error["msg"]})
    shown = "; ".join(f"{p['field']}: {p['problem']}" for p in problems[:MAX_PROBLEMS])
    if len(problems) > MAX_PROBLEMS:
        shown += f"; … (+{len(problems) - MAX_PROBLEMS})"
    message = text("acp.error.invalid_params", locale, method=method, problems=shown)
    return RequestError(INVALID_PARAMS, message, {"reason": "invalidParams", "errors": problems})


def bad_params(message: str, reason: str, **data: object) -> RequestError:
    """Params that are well-formed but cannot be used (a relative cwd, an empty prompt)."""
    return RequestError(INVALID_PARAMS, message, {"reason": reason, **data})


def unknown_session(session_id: str, locale: Locale) -> RequestError:
    message = text("acp.error.unknown_session", locale, session=session_id)
    return RequestError(
        RESOURCE_NOT_FOUND, message, {"reason": "unknownSession", "sessionId": session_id}
    )


def session_busy(locale: Locale) -> RequestError:
    return RequestError(SESSION_BUSY, text("acp.error.busy", locale), {"reason": "busy"})


def run_failed(message: str, reason: str, hint: str | None) -> RequestError:
    """A run that ended `failed`: its message and, when there is one, what to do next."""
    said = f"{message} {hint}" if hint else message
    data: dict[str, object] = {"reason": reason, "details": message}
    if hint:
        data["hint"] = hint
    return RequestError(RUN_FAILED, said, data)


_GENERIC: Final = frozenset({"Internal error", "Invalid params", "Invalid request"})


def client_reason(exc: Exception) -> str:
    """Why the client refused a request, in its own words where it gave any: the SDKs wrap a
    handler's exception as "Internal error" and put its message in `data` (`details` in the
    TypeScript SDK, `message` elsewhere), which is what the user needs to read."""
    said = str(exc)
    data = exc.data if isinstance(exc, RequestError) else None
    if isinstance(data, dict):
        detail = data.get("details") or data.get("message") or data.get("error")
        if isinstance(detail, str) and detail.strip():
            return detail.strip() if said in _GENERIC or not said else f"{said}: {detail.strip()}"
    elif isinstance(data, str) and data.strip():
        return data.strip()
    return said
