"""Reading the `export interface` and `export type` declarations of a TypeScript file, strictly.

Just the declarations the wire contract uses (fields `name?: type;`, unions, arrays, string
literals, `Record<string, unknown>`, `extends`), read into the same canonical form as
`kesi_lsp.lsp.contract.describe` writes: union members sorted, aliases expanded. Anything else
inside an interface (a method, an inline object type, an index signature) is an error, never
skipped, so the drift test cannot pass by not seeing a field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_INTERFACE = re.compile(
    r"^export interface (\w+)(?: extends ([\w, ]+))? \{\n(.*?)^\}", re.DOTALL | re.MULTILINE
)
_ALIAS = re.compile(r"^export type (\w+) =(.*?);\s*$", re.DOTALL | re.MULTILINE)
_MEMBER = re.compile(r"^(\w+)(\?)?: (.+)$", re.DOTALL)
_PRIMITIVES = frozenset({"string", "number", "boolean", "null", "unknown"})


class TsError(ValueError):
    """A declaration this reader does not understand."""


@dataclass
class Declarations:
    """Interfaces (their own fields and bases) and aliases of one file."""

    interfaces: dict[str, tuple[list[str], dict[str, tuple[str, bool]]]] = field(
        default_factory=dict
    )
    aliases: dict[str, str] = field(default_factory=dict)

    def fields(self, name: str) -> dict[str, tuple[str, bool]]:
        """Every field of interface `name`, its bases' first: wire name -> (type, optional)."""
        bases, own = self.interfaces[name]
        merged: dict[str, tuple[str, bool]] = {}
        for base in bases:
            merged.update(self.fields(base))
        for key, (raw, optional) in own.items():
            merged[key] = (self.canonical(raw), optional)
        return merged

    def canonical(self, raw: str) -> str:
        return " | ".join(sorted(self._members(raw)))

    def _members(self, raw: str) -> set[str]:
        members: set[str] = set()
        raw = raw.strip()
        # A union written one member a line (`| A | B`, as Prettier breaks a long one).
        for part in _split(raw[1:] if raw.startswith("|") else raw, "|"):
            members |= self._member(part.strip())
        return members

    def _member(self, part: str) -> set[str]:
        if part.startswith("(") and part.endswith(")") and _balanced(part[1:-1]):
            return self._members(part[1:-1])
        if part.endswith("[]"):
            inner = self.canonical(part[:-2])
            return {f"({inner})[]" if " | " in inner else f"{inner}[]"}
        if re.fullmatch(r"Record<string, ?unknown>", part):
            return {"Record<string, unknown>"}
        if re.fullmatch(r'"[^"]*"', part) or part in _PRIMITIVES or part in self.interfaces:
            return {part}
        if part in self.aliases:
            return self._members(self.aliases[part])
        raise TsError(f"cannot read the type {part!r}")


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += char in "(<{["
        depth -= char in ")>}]"
        if depth < 0:
            return False
    return depth == 0


def _split(text: str, sep: str) -> list[str]:
    """`text` cut at `sep` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += char in "(<{["
        depth -= char in ")>}]"
        if char == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()] if sep == ";" else parts


def read_declarations(source: str) -> Declarations:
    found = Declarations()
    for match in _ALIAS.finditer(source):
        found.aliases[match[1]] = _COMMENT.sub("", match[2]).strip()
    for match in _INTERFACE.finditer(source):
        name, bases = match[1], [b.strip() for b in (match[2] or "").split(",") if b.strip()]
        body = _COMMENT.sub("", match[3])
        own: dict[str, tuple[str, bool]] = {}
        for member in _split(body, ";"):
            parsed = _MEMBER.fullmatch(" ".join(member.split()))
            if parsed is None:
                raise TsError(f"interface {name}: cannot read {member.strip()!r}")
            own[parsed[1]] = (parsed[3], bool(parsed[2]))
        found.interfaces[name] = (bases, own)
    return found
