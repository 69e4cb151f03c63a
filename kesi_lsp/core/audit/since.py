"""`kesi-lsp audit --since WHEN`: a moment the user types, and the records from it on.

WHEN is what a person reaching for an audit log has at hand: an age (`30m`, `2h`, `7d`, `1w`:
that long ago), a date (`2026-12-01`: its local midnight) or a date and time
(`2026-12-01T14:30`, `2026-12-01 14:30`, with or without an offset; without one it is local
time, as the records' own times are shown). Anything else is a `ValueError` the CLI words.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

_AGE: Final = re.compile(r"(\d+)\s*([smhdw])")
_UNIT: Final = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(value: str, now: datetime.datetime | None = None) -> datetime.datetime:
    """The moment `value` names, aware (local time unless it says its offset)."""
    now = now or datetime.datetime.now().astimezone()
    typed = value.strip()
    age = _AGE.fullmatch(typed.lower())
    if age is not None:
        return now - datetime.timedelta(**{_UNIT[age.group(2)]: int(age.group(1))})
    try:
        moment = datetime.datetime.fromisoformat(typed)
    except ValueError:
        raise ValueError(value) from None
    return moment if moment.tzinfo is not None else moment.astimezone()


def _when(record: Mapping[str, Any]) -> datetime.datetime | None:
    try:
        moment = datetime.datetime.fromisoformat(str(record.get("time", "")))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.astimezone()


def records_since(
    records: Iterable[dict[str, Any]], since: datetime.datetime
) -> list[dict[str, Any]]:
    """The records written at `since` or later (a record without a readable time is left out:
    it cannot be said to be recent)."""
    kept = []
    for record in records:
        when = _when(record)
        if when is not None and when >= since:
            kept.append(record)
    return kept
