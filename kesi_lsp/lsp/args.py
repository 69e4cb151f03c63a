"""Checking `workspace/executeCommand` arguments: one JSON object, fields typed as documented.

A malformed call gets an InvalidParams error naming the field; a well-formed call that cannot
run (no folder, busy session, file outside the workspace) gets a RequestFailed error whose
message the editor can show as is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeVar

from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

REQUEST_FAILED: Final = -32803  # LSPErrorCodes.RequestFailed

_converter = get_converter()
T = TypeVar("T")


class CommandError(JsonRpcException):
    """A command that was understood but cannot be carried out; `message` says why."""

    CODE = REQUEST_FAILED

    def __init__(self, message: str, reason: str, **data: object) -> None:
        super().__init__(message=message, code=REQUEST_FAILED, data={"reason": reason, **data})


def invalid(message: str) -> JsonRpcInvalidParams:
    return JsonRpcInvalidParams(message=message)


def one_object(command: str, args: Sequence[Any]) -> Mapping[str, Any]:
    """The single object argument of `command` (no argument at all counts as `{}`)."""
    if not args:
        return {}
    if len(args) != 1 or not isinstance(args[0], Mapping):
        raise invalid(f'{command} takes one object argument, e.g. {{"uri": ...}}')
    return args[0]


def opt_str(command: str, obj: Mapping[str, Any], key: str) -> str | None:
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    raise invalid(f"{command}: '{key}' must be a string")


def req_str(command: str, obj: Mapping[str, Any], key: str) -> str:
    value = opt_str(command, obj, key)
    if not value:
        raise invalid(f"{command}: '{key}' is required")
    return value


def _structure(command: str, key: str, value: object, kind: type[T]) -> T:
    try:
        return _converter.structure(value, kind)
    except Exception as exc:
        raise invalid(f"{command}: '{key}' is not a valid {kind.__name__}: {exc}") from exc


def opt_range(command: str, obj: Mapping[str, Any], key: str = "range") -> types.Range | None:
    value = obj.get(key)
    return None if value is None else _structure(command, key, value, types.Range)


def opt_diagnostics(command: str, obj: Mapping[str, Any]) -> list[types.Diagnostic]:
    value = obj.get("diagnostics")
    if value is None:
        return []
    if not isinstance(value, list):
        raise invalid(f"{command}: 'diagnostics' must be a list")
    return [_structure(command, "diagnostics", item, types.Diagnostic) for item in value]


def unstructure(value: object) -> Any:
    """An lsprotocol value as plain JSON (for command arguments we hand to the client)."""
    return _converter.unstructure(value)
