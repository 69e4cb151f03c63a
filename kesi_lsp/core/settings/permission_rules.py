"""The user's permission rules as settings: what a rule is, how one is read and matched.

Pure data and text (standard library only), so `settings.py` can hold the rules without
importing the permission gate; `core/permissions/rules.py` applies them to commands and edits.
A string is a command pattern (`*` matches anything); `"edit:GLOB"` (or Claude Code's
`Edit(GLOB)`, and `Bash(PATTERN)` for commands) is a file glob for edits (`**` crosses folders;
a glob without `/` matches the name at any depth).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

RuleKind = Literal["allow", "ask", "deny"]
RULE_KINDS: Final[tuple[RuleKind, ...]] = ("deny", "ask", "allow")
Target = Literal["command", "edit", "mcp"]
MAX_RULES: Final = 500

_TAGGED = re.compile(r"^(Bash|Edit|Write)\((.*)\)$", re.DOTALL)


@dataclass(frozen=True)
class Rule:
    """One rule as the user wrote it, and where it came from (a settings layer)."""

    kind: RuleKind
    target: Target
    pattern: str
    source: str

    def matches(self, subject: str) -> bool:
        return _compiled(self.target, self.pattern).fullmatch(subject) is not None


@dataclass(frozen=True)
class PermissionRules:
    """The rules in force for a session (possibly none)."""

    rules: tuple[Rule, ...] = ()

    def of(self, kind: RuleKind, target: Target) -> list[Rule]:
        return [r for r in self.rules if r.kind == kind and r.target == target]


def parse_rules(value: object, source: str) -> tuple[PermissionRules, list[tuple[str, str]]]:
    """Read the `permissions` setting; also (pattern, why) for each malformed entry, ignored."""
    problems: list[tuple[str, str]] = []
    if not isinstance(value, dict):
        return PermissionRules(), [(_shown(value), "object")]
    rules: list[Rule] = []
    for key, items in value.items():
        if key not in RULE_KINDS:
            problems.append((str(key), "kind"))
            continue
        for item in items if isinstance(items, list) else [items]:
            rule = _rule(key, item, source)
            if isinstance(rule, Rule):
                rules.append(rule)
            else:
                problems.append((_shown(item), rule))
    return PermissionRules(tuple(rules[:MAX_RULES])), problems


def _shown(value: object) -> str:
    return value if isinstance(value, str) else repr(value)


def _rule(kind: RuleKind, item: object, source: str) -> Rule | str:
    """A rule, or the catalog word for what is wrong with it."""
    if not isinstance(item, str) or not item.strip():
        return "empty"
    if any(ord(char) < 32 for char in item):
        return "control"
    target: Target = "command"
    pattern = item.strip()
    tagged = _TAGGED.match(pattern)
    if tagged:
        target = "command" if tagged.group(1) == "Bash" else "edit"
        pattern = tagged.group(2).strip()
        pattern = pattern[:-2] + " *" if pattern.endswith(":*") else pattern
    elif pattern.startswith("edit:"):
        target, pattern = "edit", pattern[5:].strip()
    elif pattern.startswith(("mcp:", "mcp__")):
        return _mcp_rule(kind, pattern, source)
    if not pattern:
        return "empty"
    if target == "command" and not _quotes_closed(pattern):
        return "quotes"
    if target == "edit" and (pattern.startswith(("/", "~")) or ".." in Path(pattern).parts):
        return "outside"
    return Rule(kind, target, pattern, source)


def _mcp_rule(kind: RuleKind, pattern: str, source: str) -> Rule | str:
    """`mcp:<server>:<tool>` (or Claude Code's `mcp__<server>__<tool>`), `*` anywhere; a
    server alone (`mcp:time`, `mcp__time`) means all of its tools. Matched on `server:tool`."""
    if pattern.startswith("mcp__"):
        server, _, tool = pattern[5:].partition("__")
    else:
        server, _, tool = pattern[4:].partition(":")
    server, tool = server.strip(), tool.strip() or "*"
    if not server or ":" in tool or " " in server + tool:
        return "mcp"
    return Rule(kind, "mcp", f"{server}:{tool}", source)


def _quotes_closed(pattern: str) -> bool:
    try:
        shlex.split(pattern)
    except ValueError:
        return False
    return True


def _compiled(target: Target, pattern: str) -> re.Pattern[str]:
    if target == "mcp":
        return re.compile(".*".join(re.escape(part) for part in pattern.split("*")))
    if target == "command":
        body = ".*".join(re.escape(part) for part in pattern.split("*"))
        if pattern.endswith(" *"):  # `npm run *` also matches `npm run`
            body = body[: -len(re.escape(" ") + ".*")] + r"(?:\ .*)?"
        return re.compile(body, re.DOTALL)
    glob = pattern if "/" in pattern.rstrip("/") else "**/" + pattern
    parts = re.split(r"(\*\*/?|\*|\?)", glob.rstrip("/") + ("/**" if glob.endswith("/") else ""))
    regex = "".join(
        "(?:.*/)?"
        if p == "**/"
        else ".*"
        if p == "**"
        else "[^/]*"
        if p == "*"
        else "[^/]"
        if p == "?"
        else re.escape(p)
        for p in parts
    )
    return re.compile(regex)
