"""The tool definitions the model sees, and the argument check that mirrors them.

Each schema is `strict` with `additionalProperties: false` (seed Day 06); every argument is a
string. The descriptions say when to use a tool and when another one fits better, in the
session's locale (the zh-TW wording is the seed's). The same table drives `check_arguments`, so
the schema the model is shown and the check the input meets cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.tools.result import ToolResult

if TYPE_CHECKING:
    from anthropic.types import ToolParam


@dataclass(frozen=True)
class Field:
    name: str
    required: bool = True


TOOL_FIELDS: Final[Mapping[str, tuple[Field, ...]]] = {
    "read_file": (Field("file_path"),),
    "list_files": (Field("path", required=False),),
    "glob": (Field("pattern"),),
    "grep": (Field("pattern"), Field("path", required=False)),
    "edit_file": (Field("file_path"), Field("old_string"), Field("new_string")),
    "write_file": (Field("file_path"), Field("content")),
    "run_command": (Field("command"),),
    "search_agent": (Field("task"),),
}


def tool_schema(name: str, locale: Locale) -> ToolParam:
    """Return the definition of tool `name` with descriptions in `locale`."""
    fields = TOOL_FIELDS[name]
    properties: dict[str, object] = {
        field.name: {
            "type": "string",
            "description": text(f"tools.param.{name}.{field.name}", locale),
        }
        for field in fields
    }
    return {
        "name": name,
        "description": text(f"tools.desc.{name}", locale),
        "strict": True,
        "input_schema": {
            "type": "object",
            "properties": properties,
            "required": [field.name for field in fields if field.required],
            "additionalProperties": False,
        },
    }


def check_arguments(name: str, tool_input: object, locale: Locale) -> dict[str, str] | ToolResult:
    """Return the call's arguments if they fit the schema, else the error result for the model.

    A missing optional argument, or one sent as null, is simply absent from the result.
    """
    fields = TOOL_FIELDS[name]
    if not isinstance(tool_input, Mapping):
        return _bad(name, locale, text("tools.arg_not_object", locale))
    known = {field.name for field in fields}
    for key in tool_input:
        if key not in known:
            return _bad(name, locale, text("tools.arg_unexpected", locale, field=str(key)))
    arguments: dict[str, str] = {}
    for field in fields:
        value = tool_input.get(field.name)
        if value is None:
            if field.required:
                return _bad(name, locale, text("tools.arg_missing", locale, field=field.name))
            continue
        if not isinstance(value, str):
            return _bad(name, locale, text("tools.arg_not_string", locale, field=field.name))
        arguments[field.name] = value
    return arguments


def _bad(name: str, locale: Locale, detail: str) -> ToolResult:
    return ToolResult(text("tools.bad_arguments", locale, name=name, detail=detail), True)
