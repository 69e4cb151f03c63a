"""A longer session on a mid-size project, where context trimming has something to do.

The Day 18 project is tiny (six files, a few hundred tokens each), so its history never gets
near a budget. This scenario is what an afternoon with an editor agent looks like instead:
twenty modules of ~16 KB, read two per question, a check script whose report (~6 KB) is run
again and again (each run supersedes the last), two modules read a second time, one search.
Fourteen questions, twenty-nine requests.
"""

from __future__ import annotations

import random
from pathlib import Path

from kesi_lsp.scripted_api import Step, TextBlock, ToolUseBlock

MODULES = 20
MODULE_BYTES = 16_000
CHECK = "python3 tools/check.py"

_CHECK_SCRIPT = '''\
"""Print a report on every module: lines, functions, longest function (deterministic)."""
import pathlib

for path in sorted(pathlib.Path("src").glob("*.py")):
    lines = path.read_text().splitlines()
    defs = [i for i, line in enumerate(lines) if line.startswith("def ")]
    spans = [b - a for a, b in zip(defs, defs[1:] + [len(lines)])]
    print(f"{path}: {len(lines)} lines, {len(defs)} functions, longest {max(spans)} lines")
    for i in defs[:8]:
        print(f"    {path.name}:{i + 1}: {lines[i][4:].split('(')[0]}")
print("checked", len(list(pathlib.Path("src").glob("*.py"))), "modules")
'''


def _module(rng: random.Random, index: int) -> str:
    words = [
        "order",
        "item",
        "price",
        "total",
        "member",
        "level",
        "rule",
        "cache",
        "token",
        "stream",
        "event",
        "record",
    ]
    out = [f'"""Module {index:02d}: helpers for the {rng.choice(words)} pipeline."""', ""]
    n = 0
    while sum(len(line) + 1 for line in out) < MODULE_BYTES:
        a, b = rng.choice(words), rng.choice(words)
        out += [
            f"def {a}_{b}_{n}(value, limit={rng.randint(1, 999)}):",
            f'    """Return the {a} of value, capped at limit ({b} rule {n})."""',
            "    if value > limit:",
            f"        return limit - {rng.randint(0, 99)}",
            f"    return value * {rng.randint(2, 9)} + {rng.randint(0, 99)}",
            "",
        ]
        n += 1
    return "\n".join(out) + "\n"


def build(target: Path) -> Path:
    rng = random.Random(18)
    (target / "src").mkdir(parents=True)
    (target / "tools").mkdir()
    for i in range(1, MODULES + 1):
        (target / "src" / f"m{i:02d}.py").write_text(_module(rng, i), encoding="utf-8")
    (target / "tools" / "check.py").write_text(_CHECK_SCRIPT, encoding="utf-8")
    (target / "README.md").write_text("# pipeline\nTwenty modules and a check script.\n")
    return target


def _read(i: int) -> ToolUseBlock:
    return ToolUseBlock("read_file", {"file_path": f"src/m{i:02d}.py"})


def _run() -> ToolUseBlock:
    return ToolUseBlock("run_command", {"command": CHECK})


def _answer(text: str) -> Step:
    return Step(content=(TextBlock(text),))


def _call(text: str, *tools: ToolUseBlock) -> Step:
    return Step(content=(TextBlock(text), *tools))


def scenario() -> tuple[list[str], list[Step]]:
    """The questions and the scripted replies, in request order."""
    questions: list[str] = []
    steps: list[Step] = []
    for q in range(10):  # two new modules per question; the checks every third question
        a, b = 2 * q + 1, 2 * q + 2
        questions.append(f"What do m{a:02d} and m{b:02d} do, and how do they fit together?")
        steps.append(_call(f"Let me read m{a:02d} and m{b:02d}.", _read(a), _read(b)))
        steps.append(
            _answer(
                f"m{a:02d} and m{b:02d} are small helper modules: each function caps a value at a "
                "limit and otherwise scales it. They do not import each other; the pipeline calls "
                "them in turn."
            )
        )
        if q % 3 == 2:
            questions.append("Run the checks and tell me the longest functions.")
            steps.append(_call("Running the check script.", _run()))
            steps.append(_answer("All modules pass; the longest functions are five lines."))
    questions.append("Have m01 and m02 changed since you read them? Compare with your notes.")
    steps.append(_call("Reading them again.", _read(1), _read(2)))
    steps.append(_answer("They are unchanged since I first read them."))
    questions.append("One more check run, and find where the limit defaults are set.")
    steps.append(_call("Running the checks and searching.", _run()))
    steps.append(
        _call("Now the search.", ToolUseBlock("grep", {"pattern": "limit=", "path": "src"}))
    )
    steps.append(_answer("The checks pass; every function sets its own limit default."))
    return questions, steps
