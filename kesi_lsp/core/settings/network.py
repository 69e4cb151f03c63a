"""The sandbox's network as settings: the mode, and the host patterns it allows and denies.

Pure data and text (standard library only), so the settings can hold them without importing
the proxy (`core/network/`). A pattern is a host name (`pypi.org`, matched without case and
without a trailing dot), `*.` and a domain (`*.pythonhosted.org`: any name under it, not the
domain itself, as in Claude Code's `sandbox.network`), an IP address, or `*` (any host; the
proxy still never reaches loopback, private, link-local or metadata addresses). A deny
pattern beats every allow pattern and every grant.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from typing import Final, Literal

NetworkMode = Literal["off", "ask", "allowList"]
NETWORK_MODES: Final[tuple[NetworkMode, ...]] = ("off", "ask", "allowList")
MAX_PATTERNS: Final = 500
MAX_HOST_CHARS: Final = 253

_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")

HostVerdict = Literal["allow", "deny", "unlisted"]


def normalize_host(host: str) -> str:
    """A host name as the allow-list compares it: lower case, no trailing dot, no brackets
    around an IPv6 address, IDNA (punycode) for a non-ASCII name."""
    value = host.strip().rstrip(".").lower()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1]
    if not value.isascii():
        try:
            value = value.encode("idna").decode("ascii")
        except UnicodeError:
            return value
    return value


def is_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


def valid_host(host: str) -> bool:
    """A name the proxy may be asked to reach: an IP address or a dotted DNS name."""
    if not host or len(host) > MAX_HOST_CHARS:
        return False
    if is_ip(host):
        return True
    return all(_LABEL.match(label) for label in host.split("."))


def pattern_problem(pattern: object) -> str | None:
    """The catalog word for what is wrong with a host pattern, or None when it is good."""
    if not isinstance(pattern, str) or not pattern.strip():
        return "empty"
    value = normalize_host(pattern)
    if value == "*":
        return None
    if value.startswith("*."):
        value = value[2:]
        if is_ip(value):
            return "host"
    return None if valid_host(value) else "host"


def parse_patterns(value: object) -> tuple[tuple[str, ...], list[tuple[str, str]]]:
    """Read an allow or deny list: the good patterns (normalized), and (pattern, why) for each
    one ignored; a value that is not a list is one problem ("list")."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        return (), [(repr(value), "list")]
    good: list[str] = []
    bad: list[tuple[str, str]] = []
    for item in value:
        why = pattern_problem(item)
        if why is None:
            normalized = normalize_host(str(item))
            if normalized not in good:
                good.append(normalized)
        else:
            bad.append((item if isinstance(item, str) else repr(item), why))
    return tuple(good[:MAX_PATTERNS]), bad


def split_patterns(raw: str) -> list[str]:
    """An environment variable's list: patterns separated by commas or white space."""
    return [part for part in re.split(r"[,\s]+", raw) if part]


def host_matches(pattern: str, host: str) -> bool:
    """Whether normalized `host` is one `pattern` names."""
    if pattern == "*":
        return True
    if pattern.startswith("*."):
        return host.endswith(pattern[1:]) and len(host) > len(pattern) - 1
    return host == pattern


def first_match(patterns: Iterable[str], host: str) -> str | None:
    return next((p for p in patterns if host_matches(p, host)), None)


def host_verdict(
    host: str, allow: Iterable[str], deny: Iterable[str], granted: Iterable[str] = ()
) -> HostVerdict:
    """Deny first (no allow pattern and no grant lifts it), then allow patterns and the
    session's grants (exact host names), else unlisted."""
    name = normalize_host(host)
    if first_match(deny, name) is not None:
        return "deny"
    if first_match(allow, name) is not None or name in set(granted):
        return "allow"
    return "unlisted"
