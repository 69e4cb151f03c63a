"""Checking `workspace/executeCommand` arguments: one JSON object, read into its contract class.

A malformed call gets an InvalidParams error naming the field; a well-formed call that cannot
run (no folder, busy session, file outside the workspace) gets a RequestFailed error whose
message the editor can show as is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeVar

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from kesi_lsp.lsp.contract import ShapeError, read
from kesi_lsp.lsp.wire import plain_json_converter

REQUEST_FAILED: Final = -32803  # LSPErrorCodes.RequestFailed

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


def read_args(command: str, args: Sequence[Any], cls: type[T]) -> T:
    """The one object argument of `command` as its contract class (`kesi_lsp.lsp.contract`),
    read strictly: a missing or mistyped field is an InvalidParams error naming it
    ("kesi.ask: 'prompt' must be a string"), before anything runs."""
    try:
        return read(one_object(command, args), cls, plain_json_converter())
    except ShapeError as exc:
        raise invalid(f"{command}: {exc}") from None


def unstructure(value: object) -> Any:
    """A typed value (an lsprotocol type, a contract class) as plain JSON."""
    return plain_json_converter().unstructure(value)
