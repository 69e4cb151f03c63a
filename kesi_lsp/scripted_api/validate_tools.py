"""Checking the `tools` of a request: unique valid names, known fields, and input schemas that
are JSON Schema objects (strict tools closed with `additionalProperties: false`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kesi_lsp.scripted_api.validate_blocks import (
    TOOL_NAME,
    Problems,
    check_cache_control_of,
    reject_extra,
)

TOOL_FIELDS: Final = frozenset(
    {
        "name",
        "description",
        "input_schema",
        "cache_control",
        "strict",
        "type",
        "input_examples",
        "defer_loading",
        "eager_input_streaming",
    }
)
SCHEMA_TYPES: Final = frozenset(
    {"object", "string", "number", "integer", "boolean", "array", "null"}
)


def check_tools(tools: object, out: Problems) -> None:
    names: set[str] = set()
    if not isinstance(tools, list):
        out.add("tools", "Input should be a list")
        return
    for i, tool in enumerate(tools):
        where = f"tools.{i}"
        if not isinstance(tool, Mapping):
            out.add(where, "Input should be an object")
            continue
        name = tool.get("name")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            out.add(f"{where}.name", f"String should match pattern '{TOOL_NAME.pattern}'")
        elif name in names:
            out.add("tools", f"Tool names must be unique. Found duplicate: {name}")
        else:
            names.add(name)
        _check_tool(tool, where, out)


def _check_tool(tool: Mapping[str, Any], where: str, out: Problems) -> None:
    reject_extra(tool, TOOL_FIELDS, where, out)
    if "description" in tool and not isinstance(tool["description"], str):
        out.add(f"{where}.description", "Input should be a valid string")
    if "strict" in tool and not isinstance(tool["strict"], bool):
        out.add(f"{where}.strict", "Input should be a valid boolean")
    check_cache_control_of(tool, where, out)
    schema = tool.get("input_schema")
    _check_input_schema(schema, f"{where}.input_schema", out)
    open_schema = isinstance(schema, Mapping) and schema.get("additionalProperties") is not False
    if tool.get("strict") is True and open_schema:
        out.add(f"{where}.input_schema", "strict tools require 'additionalProperties': false")


def _check_input_schema(schema: object, where: str, out: Problems) -> None:
    if schema is None:
        out.add(where, "Field required")
        return
    if not isinstance(schema, Mapping):
        out.add(where, "Input should be an object")
        return
    if schema.get("type") != "object":
        out.add(f"{where}.type", "Input should be 'object'")
    _check_schema_node(schema, where, out)


def _check_schema_node(node: Mapping[str, Any], where: str, out: Problems) -> None:
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    for k in kinds:
        if k not in SCHEMA_TYPES:
            out.add(f"{where}.type", f"JSON schema is invalid: unknown type {k!r}")
    props = node.get("properties")
    if props is not None:
        if not isinstance(props, Mapping):
            out.add(f"{where}.properties", "JSON schema is invalid: properties must be an object")
            props = {}
        for name, sub in props.items():
            if not isinstance(sub, Mapping):
                out.add(f"{where}.properties.{name}", "JSON schema is invalid: not a schema")
            else:
                _check_schema_node(sub, f"{where}.properties.{name}", out)
    required = node.get("required")
    if required is not None:
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            out.add(f"{where}.required", "JSON schema is invalid: required must list names")
        else:
            missing = [r for r in required if r not in (props or {})]
            if missing:
                out.add(f"{where}.required", f"JSON schema is invalid: unknown {missing}")
    items = node.get("items")
    if isinstance(items, Mapping):
        _check_schema_node(items, f"{where}.items", out)
