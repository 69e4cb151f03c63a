"""The contract as plain JSON, in TypeScript's terms: what a client declaration must match.

`describe()` lists every class under the name the TypeScript side gives it (`TS_NAME`, else
the class's own), each field under its wire name with its type written as TypeScript writes
it (`string | null`, `PlanItem[]`, `"reject" | "accept"`), whether the field may be
absent, and who sends the message (`client`: command arguments and answers to the server's
requests; `server`: everything else). The drift test of `editors/vscode/src/core/protocol.ts`
compares its declarations with this; `python -m kesi_lsp.lsp.contract.describe` prints it.
"""

from __future__ import annotations

import json
import types as pytypes
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import attrs

from kesi_lsp.lsp import contract
from kesi_lsp.lsp.contract.shape import ABSENT, camel, is_contract

FROM_CLIENT: frozenset[type[Any]] = frozenset(
    {
        contract.FixThisArgs,
        contract.AskArgs,
        contract.CancelArgs,
        contract.FolderArgs,
        contract.KeepArgs,
        contract.UndoArgs,
        contract.UndoRunArgs,
        contract.StopTaskArgs,
        contract.ReviewEditAnswer,
        contract.SaveDocumentsResult,
        contract.DiagnosticsResult,
        contract.DiagnosticsItem,
    }
)
"""What the client sends: command arguments, and its answers to the server's requests."""

LSP_TYPES = frozenset({"Range", "Position", "Diagnostic"})
"""LSP's own types, named as the TypeScript side names them (lsprotocol's shapes)."""


def ts_name(cls: type[Any]) -> str:
    return str(getattr(cls, "TS_NAME", cls.__name__))


def _members(hint: Any) -> set[str]:
    """`hint` as a set of TypeScript union members."""
    origin = get_origin(hint)
    if origin in (Union, pytypes.UnionType):
        return set().union(*(_members(arg) for arg in get_args(hint)))
    if origin is Literal:
        return {json.dumps(arg) for arg in get_args(hint)}
    if origin is list:
        (item,) = get_args(hint)
        inner = ts_type(item)
        return {f"({inner})[]" if " | " in inner else f"{inner}[]"}
    if origin is dict:
        return {"Record<string, unknown>"}
    simple = {str: "string", int: "number", float: "number", bool: "boolean"}
    if hint in simple:
        return {simple[hint]}
    if hint is type(None):
        return {"null"}
    if hint is Any or hint is object:
        return {"unknown"}
    if is_contract(hint):
        return {ts_name(hint)}
    name = getattr(hint, "__name__", "")
    if name in LSP_TYPES:
        return {name}
    raise TypeError(f"no TypeScript form for {hint!r}")


def ts_type(hint: Any) -> str:
    """A type as TypeScript writes it, union members sorted (a canonical form)."""
    return " | ".join(sorted(_members(hint)))


def _field(f: attrs.Attribute[Any], hint: Any, sent_by: str) -> dict[str, object]:
    """A field's type, and whether its sender may leave it out: the server only the fields
    marked ABSENT (never sent as null then), a client every field with a default."""
    members = _members(hint)
    absent = all(f.metadata.get(key) for key in ABSENT)
    if absent:
        members.discard("null")
    optional = absent or (sent_by == "client" and f.default is not attrs.NOTHING)
    return {"type": " | ".join(sorted(members)), "optional": optional}


def describe() -> dict[str, object]:
    """{"interfaces": {name: {"sentBy", "fields": {wire name: {"type", "optional"}}}},
    "streamEvent": [the names of every `kesi/stream` kind]}."""
    interfaces: dict[str, object] = {}
    for cls in contract.CLASSES:
        hints = get_type_hints(cls)
        sent_by = "client" if cls in FROM_CLIENT else "server"
        fields = {camel(f.name): _field(f, hints[f.name], sent_by) for f in attrs.fields(cls)}
        interfaces[ts_name(cls)] = {"sentBy": sent_by, "fields": fields}
    return {
        "interfaces": interfaces,
        "streamEvent": sorted(ts_name(cls) for cls in contract.STREAM_EVENTS),
    }


if __name__ == "__main__":
    import sys

    sys.stdout.write(json.dumps(describe(), indent=2, ensure_ascii=False) + "\n")
