"""The tool definitions the model sees, and the argument check that mirrors them.

Each schema is `strict` with `additionalProperties: false` (seed Day 06). Arguments are strings,
except read_file's `offset` and `limit` (integers: Days 06 and 10 promise the "page buttons"
of Claude Code's Read tool), task_output's `lines`, run_command's `background` (a boolean) and
the todo tool's `items` (the whole plan, a list of objects).
The descriptions say when to use a tool and when another one fits better, in the session's
locale (the zh-TW wording is the seed's). The same table drives `check_arguments`, so
the schema the model is shown and the check the input meets cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.tools.result import ToolResult

if TYPE_CHECKING:
    from anthropic.types import ToolParam


FieldKind = Literal["string", "integer", "boolean", "plan"]


@dataclass(frozen=True)
class Field:
    name: str
    required: bool = True
    kind: FieldKind = "string"


PLAN_STATUSES: Final = ("pending", "in_progress", "completed")

TOOL_FIELDS: Final[Mapping[str, tuple[Field, ...]]] = {
    "read_file": (
        Field("file_path"),
        Field("offset", required=False, kind="integer"),
        Field("limit", required=False, kind="integer"),
    ),
    "list_files": (Field("path", required=False),),
    "glob": (Field("pattern"),),
    "grep": (Field("pattern"), Field("path", required=False)),
    "edit_file": (Field("file_path"), Field("old_string"), Field("new_string")),
    "write_file": (Field("file_path"), Field("content")),
    "run_command": (Field("command"), Field("background", required=False, kind="boolean")),
    "task_output": (Field("task_id"), Field("lines", required=False, kind="integer")),
    "task_stop": (Field("task_id"),),
    "todo": (Field("items", kind="plan"),),
    "search_agent": (Field("task"),),
}


def _property(name: str, field: Field, locale: Locale) -> dict[str, object]:
    """The JSON schema of one argument, with its description in `locale`."""
    description = text(f"tools.param.{name}.{field.name}", locale)
    if field.kind == "integer":
        return {"type": "integer", "description": description}
    if field.kind == "boolean":
        return {"type": "boolean", "description": description}
    if field.kind == "plan":
        item = {
            "type": "object",
            "properties": {
                "content": {
                    "type": "string",
                    "description": text("tools.param.todo.content", locale),
                },
                "status": {"type": "string", "enum": list(PLAN_STATUSES)},
            },
            "required": ["content", "status"],
            "additionalProperties": False,
        }
        return {"type": "array", "description": description, "items": item}
    return {"type": "string", "description": description}


def tool_schema(name: str, locale: Locale) -> ToolParam:
    """Return the definition of tool `name` with descriptions in `locale`."""
    fields = TOOL_FIELDS[name]
    properties = {field.name: _property(name, field, locale) for field in fields}
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


def check_arguments(name: str, tool_input: object, locale: Locale) -> dict[str, Any] | ToolResult:
    """Return the call's arguments if they fit the schema, else the error result for the model.

    A missing optional argument, or one sent as null, is simply absent from the result. A plan
    is only checked to be a list here: what each item must hold is the todo tool's own check,
    whose errors say exactly which item is wrong.
    """
    fields = TOOL_FIELDS[name]
    if not isinstance(tool_input, Mapping):
        return _bad(name, locale, text("tools.arg_not_object", locale))
    known = {field.name for field in fields}
    for key in tool_input:
        if key not in known:
            return _bad(name, locale, text("tools.arg_unexpected", locale, field=str(key)))
    arguments: dict[str, Any] = {}
    for field in fields:
        value = tool_input.get(field.name)
        if value is None:
            if field.required:
                return _bad(name, locale, text("tools.arg_missing", locale, field=field.name))
            continue
        if not _fits(field.kind, value):
            key = f"tools.arg_not_{field.kind}"
            return _bad(name, locale, text(key, locale, field=field.name))
        arguments[field.name] = value
    return arguments


def _fits(kind: FieldKind, value: object) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "plan":
        return isinstance(value, list)
    if kind == "boolean":
        return isinstance(value, bool)
    return isinstance(value, str)


def _bad(name: str, locale: Locale, detail: str) -> ToolResult:
    return ToolResult(text("tools.bad_arguments", locale, name=name, detail=detail), True)
