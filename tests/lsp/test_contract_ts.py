"""The TypeScript side of the wire contract cannot drift from the server's classes (issue 25).

`editors/vscode/src/core/protocol.ts` declares every `kesi/*` payload the extension reads or
sends; `kesi_lsp/lsp/contract` defines them once. This test reads the TypeScript declarations
(strictly: `ts_declarations.py` fails on what it cannot read) and compares them with
`describe()`, class by class and field by field:

- the same interfaces, the same fields (a field added on one side only fails);
- the same types (union members compared as sets; an absent-or-null argument may be declared
  `x?: T` instead of `x?: T | null`);
- optionality in the safe direction: what the server may leave out is optional in TypeScript
  (a field TypeScript also marks optional when the server always sends it is a tolerant
  reader), and what the extension sends is never optional where the server requires it.

Checking the hand-written file rather than generating it keeps its readers and notes beside the
types; the strict reader is what makes the check trustworthy.
"""

from __future__ import annotations

from pathlib import Path

from kesi_lsp.lsp.contract.describe import LSP_TYPES, describe
from tests.lsp.ts_declarations import Declarations, read_declarations

PROTOCOL = Path(__file__).resolve().parents[2] / "editors/vscode/src/core/protocol.ts"
TS_ONLY = frozenset({"Rendered"}) | LSP_TYPES
"""Interfaces of protocol.ts that are not classes of the contract: LSP's own types, and a base
that only groups fields every rendered event has."""


def drift(ts: Declarations, contract: dict[str, object]) -> list[str]:
    """Every difference between the TypeScript declarations and the contract, in words."""
    interfaces = contract["interfaces"]
    assert isinstance(interfaces, dict)
    problems: list[str] = []
    declared = set(ts.interfaces) - TS_ONLY
    problems += [f"{n}: in protocol.ts only" for n in sorted(declared - set(interfaces))]
    problems += [f"{n}: not in protocol.ts" for n in sorted(set(interfaces) - declared)]
    for name in sorted(declared & set(interfaces)):
        problems += _fields(name, ts.fields(name), interfaces[name])
    events = ts.canonical("StreamEvent") if "StreamEvent" in ts.aliases else ""
    if events != " | ".join(contract["streamEvent"]):  # type: ignore[arg-type]
        problems.append(f"StreamEvent: {events!r} in protocol.ts, {contract['streamEvent']}")
    return problems


def _fields(name: str, ts: dict[str, tuple[str, bool]], cls: dict[str, object]) -> list[str]:
    fields = cls["fields"]
    assert isinstance(fields, dict)
    problems = [f"{name}.{k}: in protocol.ts only" for k in sorted(set(ts) - set(fields))]
    problems += [f"{name}.{k}: not in protocol.ts" for k in sorted(set(fields) - set(ts))]
    for key in sorted(set(ts) & set(fields)):
        ts_type, ts_optional = ts[key]
        py_type, py_optional = fields[key]["type"], fields[key]["optional"]
        without_null = " | ".join(m for m in py_type.split(" | ") if m != "null")
        if ts_type != py_type and not (ts_optional and py_optional and ts_type == without_null):
            problems.append(f"{name}.{key}: {ts_type} in protocol.ts, {py_type} in the contract")
        if cls["sentBy"] == "server" and py_optional and not ts_optional:
            problems.append(f"{name}.{key}: the server may leave it out; mark it optional")
        if cls["sentBy"] == "client" and ts_optional and not py_optional:
            problems.append(f"{name}.{key}: the server requires it; it cannot be optional")
    return problems


def test_protocol_ts_declares_the_contract_exactly() -> None:
    ts = read_declarations(PROTOCOL.read_text(encoding="utf-8"))
    assert drift(ts, describe()) == []


def test_a_field_on_one_side_only_or_a_changed_type_is_drift() -> None:
    """The check itself: each kind of drift, made on purpose in a copy of protocol.ts."""
    source = PROTOCOL.read_text(encoding="utf-8")
    contract = describe()

    def with_edit(old: str, new: str) -> list[str]:
        assert old in source
        return drift(read_declarations(source.replace(old, new, 1)), contract)

    assert with_edit("  isError: boolean;\n", "") == ["ToolEndEvent.isError: not in protocol.ts"]
    assert with_edit("  isError: boolean;\n", "  isError: boolean;\n  extra: number;\n") == [
        "ToolEndEvent.extra: in protocol.ts only"
    ]
    assert with_edit("  cancelled: boolean;", "  cancelled: string;") == [
        "CancelResult.cancelled: string in protocol.ts, boolean in the contract"
    ]
    assert with_edit(
        'export type Decision = "reject" | "accept"', 'export type Decision = "reject"'
    )
    assert with_edit("  prompt: string;", "  prompt?: string;") == [
        "AskArgs.prompt: the server requires it; it cannot be optional"
    ]
    assert with_edit("  subtotal?: Usage;", "  subtotal: Usage;") == [
        "UsageEvent.subtotal: the server may leave it out; mark it optional"
    ]
    (kinds,) = with_edit("  | EditEvent\n  | TurnEvent;", "  | EditEvent;")
    assert kinds.startswith("StreamEvent: ") and "TurnEvent" in kinds
    assert with_edit("export interface RunStarted {", "export interface RunBegun {") == [
        "RunBegun: in protocol.ts only",
        "RunStarted: not in protocol.ts",
    ]
