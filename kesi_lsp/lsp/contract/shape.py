"""How a contract class meets JSON: camelCase names, fields that may be absent, strict reading.

Every class of the contract is an attrs class with snake_case fields; on the wire each field is
its camelCase name (`run_id` -> `runId`). A field whose metadata is `ABSENT` is left out of the
JSON when it is None (a top-level event has no `parentToolUseId`; a review's answer may carry
no `after`); every other field is always sent, null included.

Reading JSON (a command's argument, a client's answer) is strict: cattrs would turn `3` into
`"3"` for a `str` field, so `check` first compares the JSON with the field types and says what
is wrong in the words of the command ("'prompt' must be a string"); only then does the
converter build the object. `register` puts both hooks of every class on the process's one
converter (`wire.plain_json_converter`), so pygls unstructures the classes itself.
"""

from __future__ import annotations

import types as pytypes
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

ABSENT: Final = pytypes.MappingProxyType({"kesi.absent": True})
"""Field metadata: None by default, and then left out of the JSON
(`field(default=None, metadata=ABSENT)`)."""
NONEMPTY: Final = pytypes.MappingProxyType({"kesi.nonempty": True})
"""Field metadata: a required string that must not be empty ("'uri' is required")."""
T = TypeVar("T")


def _marked(f: attrs.Attribute[Any], mark: Mapping[str, bool]) -> bool:
    return all(f.metadata.get(key) for key in mark)


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def is_contract(cls: object) -> bool:
    return isinstance(cls, type) and attrs.has(cls) and cls.__module__.startswith(__package__ or "")


def register(converter: cattrs.Converter, classes: Iterable[type[Any]]) -> None:
    """camelCase names and absent fields, for each class both ways; each hook is written on
    the class's first use (cattrs generates code per class: nothing paid at start-up)."""
    known = frozenset(classes)

    def unstructure(cls: type[Any]) -> Any:
        out: dict[str, Any] = {
            f.name: override(rename=camel(f.name), omit_if_default=_marked(f, ABSENT))
            for f in attrs.fields(cls)
        }
        return make_dict_unstructure_fn(cls, converter, **out)

    def structure(cls: type[Any]) -> Any:
        into: dict[str, Any] = {f.name: override(rename=camel(f.name)) for f in attrs.fields(cls)}
        return make_dict_structure_fn(cls, converter, **into)

    converter.register_unstructure_hook_factory(known.__contains__, unstructure)
    converter.register_structure_hook_factory(known.__contains__, structure)


class ShapeError(ValueError):
    """JSON that does not fit a contract class; the message names the field and what it needs."""


def _kind(hint: Any) -> str:
    if hint is str:
        return "must be a string"
    if hint is bool:
        return "must be true or false"
    if hint in (int, float):
        return "must be a number"
    if get_origin(hint) is list:
        return "must be a list"
    if get_origin(hint) is Literal:
        return "must be one of " + ", ".join(repr(a) for a in get_args(hint))
    return "must be an object"


def _fits(value: object, hint: Any, converter: cattrs.Converter) -> str | None:
    """None when `value` fits `hint`, else what it must be."""
    origin = get_origin(hint)
    if origin in (Union, pytypes.UnionType):
        members = get_args(hint)
        if value is None and type(None) in members:
            return None
        problems = [_fits(value, m, converter) for m in members if m is not type(None)]
        return None if any(p is None for p in problems) else problems[0]
    if origin is Literal:
        return None if value in get_args(hint) else _kind(hint)
    if origin is list:
        if not isinstance(value, list):
            return _kind(hint)
        (item,) = get_args(hint)
        return next((p for v in value if (p := _fits(v, item, converter)) is not None), None)
    if origin is dict:
        return None if isinstance(value, dict) else _kind(hint)
    if hint is bool:
        return None if isinstance(value, bool) else _kind(hint)
    if hint in (int, float):
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return None if number else _kind(hint)
    if hint is str:
        return None if isinstance(value, str) else _kind(hint)
    if hint is object or hint is Any:
        return None
    if is_contract(hint):
        if not isinstance(value, Mapping):
            return _kind(hint)
        check(value, hint, converter)
        return None
    try:  # an LSP type (Range, Diagnostic): lsprotocol's own reading
        converter.structure(value, hint)
    except Exception as exc:
        why = (
            "; ".join(cattrs.transform_error(exc))
            if isinstance(exc, cattrs.BaseValidationError)
            else str(exc)
        )
        return f"is not a valid {getattr(hint, '__name__', hint)} ({why})"
    return None


def check(obj: Mapping[str, Any], cls: type[Any], converter: cattrs.Converter) -> None:
    """Raise ShapeError naming the first field of `obj` that does not fit `cls`."""
    hints = get_type_hints(cls)
    for f in attrs.fields(cls):
        key = camel(f.name)
        value = obj.get(key)
        if value is None:
            if f.default is attrs.NOTHING and not _accepts_none(hints[f.name]):
                raise ShapeError(f"'{key}' is required")
            continue
        if _marked(f, NONEMPTY) and value == "":
            raise ShapeError(f"'{key}' is required")
        problem = _fits(value, hints[f.name], converter)
        if problem is not None:
            raise ShapeError(f"'{key}' {problem}")


def _accepts_none(hint: Any) -> bool:
    return get_origin(hint) in (Union, pytypes.UnionType) and type(None) in get_args(hint)


def read(obj: Mapping[str, Any], cls: type[T], converter: cattrs.Converter) -> T:
    """`obj` as a `cls`, checked strictly first (ShapeError says what does not fit)."""
    check(obj, cls, converter)
    return converter.structure(dict(obj), cls)
