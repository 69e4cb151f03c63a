"""The little HTTP the proxy speaks: a request head read and judged, a refusal written.

Two request forms arrive from a proxy client: `CONNECT host:port` (https, git, anything in a
tunnel) and a plain request with an absolute URL (`GET http://host/path`). The plain request
is sent on in origin form with `Connection: close`, so each request on a kept-alive client
connection is judged on its own: the upstream closes after its answer, the client opens a
new connection (and the proxy judges its host) for the next one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

HEAD_LIMIT: Final = 64 * 1024
HOP_BY_HOP: Final = frozenset(
    {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "upgrade"}
)


class BadRequestError(ValueError):
    """A request head the proxy cannot serve; the message is for the 400 answer."""


@dataclass(frozen=True)
class ProxyRequest:
    """What a client asked for: `host` and `port` to reach; for a plain request, `head` is
    the request to send on (origin form); None for CONNECT."""

    method: str
    host: str
    port: int
    head: bytes | None


def _split_host_port(target: str, default: int) -> tuple[str, int]:
    if target.startswith("["):
        host, _, rest = target[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = target.rpartition(":") if target.count(":") == 1 else (target, "", "")
    if not host:
        raise BadRequestError(f"no host in {target!r}")
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        raise BadRequestError(f"bad port in {target!r}")
    return host, int(port) if port else default


def parse_request(head: bytes) -> ProxyRequest:
    """Read a request head (up to and with its blank line)."""
    try:
        text = head.decode("latin-1")
    except UnicodeDecodeError as exc:  # latin-1 decodes anything; kept for clarity
        raise BadRequestError("unreadable request") from exc
    lines = text.split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        raise BadRequestError("not an HTTP request line")
    method, target, version = parts
    if method.upper() == "CONNECT":
        host, port = _split_host_port(target, 443)
        return ProxyRequest("CONNECT", host, port, None)
    url = urlsplit(target)
    if url.scheme.lower() != "http" or not url.hostname:
        raise BadRequestError("a proxied request names an http:// URL (https goes through CONNECT)")
    try:
        port = url.port or 80
    except ValueError as exc:
        raise BadRequestError(f"bad port in {target!r}") from exc
    path = (url.path or "/") + (f"?{url.query}" if url.query else "")
    headers = [line for line in lines[1:] if line]
    kept = [h for h in headers if h.split(":", 1)[0].strip().lower() not in HOP_BY_HOP]
    if not any(h.split(":", 1)[0].strip().lower() == "host" for h in kept):
        kept.insert(0, f"Host: {url.netloc.rpartition('@')[2]}")
    rebuilt = "\r\n".join([f"{method} {path} {version}", *kept, "Connection: close", "", ""])
    return ProxyRequest(method, url.hostname, port, rebuilt.encode("latin-1"))


def response(status: int, reason: str, body: str) -> bytes:
    """A complete answer from the proxy itself, closing the connection."""
    data = (body.rstrip("\n") + "\n").encode("utf-8")
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(data)}\r\n"
        "Proxy-Agent: kesi-lsp\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode("latin-1") + data


ESTABLISHED: Final = b"HTTP/1.1 200 Connection Established\r\nProxy-Agent: kesi-lsp\r\n\r\n"
