"""Figures, their targets, and the table / JSON / Markdown they are printed as.

Every target in issue 9 is an upper bound ("< 5 ms", "<= 2x idle", "<= 0.45x"), so a figure
carries one `limit`: it meets its target when `value <= limit`. The CI smoke run allows a noise
margin: `met(margin=1.5)` accepts a value up to 50% over the limit.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Figure:
    """One measured number, next to its target and what it was compared against."""

    bench: str
    name: str
    value: float
    unit: str
    limit: float | None = None  # the target: value <= limit (None: shown for context)
    baseline: str = ""  # the same-run baseline it is compared with, in words
    note: str = ""
    ci: bool = True  # checked by the smoke run in CI (False: too noisy on a shared machine)

    def met(self, margin: float = 1.0) -> bool | None:
        if self.limit is None:
            return None
        if math.isnan(self.value):
            return False
        return self.value <= self.limit * margin

    @property
    def target(self) -> str:
        return "" if self.limit is None else f"<= {_num(self.limit)}{_unit(self.unit)}"

    def shown(self) -> str:
        return f"{_num(self.value)}{_unit(self.unit)}"


def _unit(unit: str) -> str:
    return unit if unit in ("x", "%") else f" {unit}" if unit else ""


def _num(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    if value == int(value) and abs(value) >= 100:
        return f"{int(value):,}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


@dataclass
class Report:
    """Everything one run measured."""

    mode: str
    machine: dict[str, Any]
    figures: list[Figure] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, figure: Figure) -> None:
        self.figures.append(figure)

    def failures(self, margin: float = 1.0) -> list[Figure]:
        return [f for f in self.figures if f.met(margin) is False]

    def table(self) -> str:
        rows = [("bench", "figure", "value", "target", "ok", "baseline (same run)")]
        for f in self.figures:
            ok = {True: "yes", False: "NO", None: ""}[f.met()]
            rows.append((f.bench, f.name, f.shown(), f.target, ok, f.baseline))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
        lines = []
        for n, row in enumerate(rows):
            cells = [row[i].ljust(widths[i]) for i in range(len(widths))] + [row[-1]]
            lines.append("  ".join(cells).rstrip())
            if n == 0:
                lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 20)
        return "\n".join(lines)

    def markdown(self) -> str:
        out = ["| bench | figure | value | target | ok | baseline (same run) |"]
        out.append("|---|---|---:|---|---|---|")
        for f in self.figures:
            ok = {True: "yes", False: "**no**", None: ""}[f.met()]
            out.append(f"| {f.bench} | {f.name} | {f.shown()} | {f.target} | {ok} | {f.baseline} |")
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "machine": self.machine,
            "seconds": self.seconds,
            "figures": [{**asdict(f), "target": f.target, "met": f.met()} for f in self.figures],
            "details": self.details,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Report:
        """A report as `to_json` wrote it (to render it again without running anything)."""
        names = {f.name for f in fields(Figure)}
        figures = [Figure(**{k: v for k, v in f.items() if k in names}) for f in data["figures"]]
        return cls(data["mode"], data["machine"], figures, data["details"], data["seconds"])

    def write_json(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n")
