"""The servers' tools as the model sees them: `mcp__<server>__<tool>`, checked against what the
Messages API accepts, in a stable order.

The API refuses a whole request over one bad tool definition, so each tool is checked here
first: its full name must match `^[a-zA-Z0-9_-]{1,64}$` (the API's tool name, at its
strictest), its input schema must be a JSON Schema (2020-12, as the API reads it) whose root is
an object, and not absurdly large. A tool that fails is left out with a notice naming it and
why; the server's other tools stay. The order is by server name, then tool name, so the tool
list (the start of the cached prompt prefix) is the same request after request.

Descriptions are the server's words, not KeSi's: each says which server it comes from, and is
cut at `MAX_DESCRIPTION` characters.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.mcp.server import ServerTool

PREFIX: Final = "mcp__"
TOOL_NAME: Final = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_DESCRIPTION: Final = 2000
MAX_SCHEMA_BYTES: Final = 64 * 1024


def full_name(server: str, tool: str) -> str:
    return f"{PREFIX}{server}__{tool}"


@dataclass(frozen=True)
class Offered:
    """One tool offered to the model: its full name, where it goes, and its definition."""

    name: str
    server: str
    tool: str
    param: dict[str, Any]


@dataclass(frozen=True)
class LeftOut:
    """A tool the API would refuse: which, and why (in words)."""

    server: str
    tool: str
    why: str


def offer(
    servers: Iterable[tuple[str, tuple[ServerTool, ...]]], locale: Locale
) -> tuple[list[Offered], list[LeftOut]]:
    """The tools of the ready `servers` that the API accepts, sorted, and those left out."""
    offered: list[Offered] = []
    left_out: list[LeftOut] = []
    seen: set[str] = set()
    for server, tools in sorted(servers, key=lambda pair: pair[0]):
        for tool in sorted(tools, key=lambda t: t.name):
            name = full_name(server, tool.name)
            why = _problem(name, tool.input_schema, seen, locale)
            if why is not None:
                left_out.append(LeftOut(server, tool.name, why))
                continue
            seen.add(name)
            offered.append(Offered(name, server, tool.name, _param(name, server, tool, locale)))
    return offered, left_out


def _param(name: str, server: str, tool: ServerTool, locale: Locale) -> dict[str, Any]:
    said = " ".join(tool.description.split())
    if len(said) > MAX_DESCRIPTION:
        said = said[: MAX_DESCRIPTION - 1] + "…"
    description = text("mcp.tool.description", locale, server=server, description=said)
    return {"name": name, "description": description, "input_schema": dict(tool.input_schema)}


def _problem(name: str, schema: Mapping[str, Any], seen: set[str], locale: Locale) -> str | None:
    if not TOOL_NAME.match(name):
        return text("mcp.why.name", locale, name=name)
    if name in seen:
        return text("mcp.why.duplicate", locale, name=name)
    detail = schema_problem(schema)
    return None if detail is None else text("mcp.why.schema", locale, detail=detail)


def schema_problem(schema: object) -> str | None:
    """What is wrong with `schema` as a tool's input schema for the API, or None."""
    if not isinstance(schema, Mapping):
        return "not an object"
    if schema.get("type") != "object":
        return 'the root "type" is not "object"'
    try:
        size = len(json.dumps(schema))
    except (TypeError, ValueError):
        return "not JSON"
    if size > MAX_SCHEMA_BYTES:
        return f"{size} bytes, more than {MAX_SCHEMA_BYTES}"
    from jsonschema import SchemaError
    from jsonschema.validators import Draft202012Validator

    try:
        Draft202012Validator.check_schema(dict(schema))
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.path) or "root"
        return f"{exc.message} (at {where})"
    return None
