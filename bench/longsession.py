"""A long session on a mid-size project: where trimming, compaction and the search sub-agent
have something to do.

The Day 18 project is tiny (six files, a few hundred tokens each), so its history never gets
near a budget. This scenario is what an afternoon with an editor agent looks like instead:
twenty modules of ~16 KB (about 8,000 tokens each as the scripted API counts them), read two
per question; a check script whose report (~6 KB) is run again and again; modules read a second
time; and two wide searches (a grep over every module, then the three modules it points at).
Nineteen questions, forty requests in the main conversation when the searches are done inline.

`scenario(subagent=False)` is the seed's way: the searches happen in the main conversation.
`scenario(subagent=True)` is KeSi's: each search is one `search_agent` call, whose sub-agent
makes the same grep and reads in its own conversation and brings back a conclusion; its
requests are in the same list, where they arrive (right after the call).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Search:
    """A wide search: a question, the grep that starts it, the three modules it points at."""

    question: str
    task: str
    pattern: str
    modules: tuple[int, int, int]
    conclusion: str
    answer: str


SEARCHES = (
    Search(
        "Which modules lean most on the member helpers, and how do those helpers cap values?",
        "Find which modules in src/ define the most member_* helpers, and how those helpers "
        "cap their values. Cite path:line.",
        "def member_",
        (17, 18, 10),
        "The member_* helpers are everywhere (grep finds them in all twenty modules), most in "
        "src/m17.py (14, e.g. src/m17.py:7), src/m18.py (13, src/m18.py:13) and src/m10.py "
        "(11, src/m10.py:19). Each one caps the same way: `if value > limit: return limit - k`, "
        "otherwise `value * a + b` (src/m17.py:9-11). Limits are per-function defaults between "
        "1 and 999; nothing calls them across modules.",
        "m17, m18 and m10 define the most member helpers; each caps at its own default limit.",
    ),
    Search(
        "Where are the token_stream helpers, and do any of them share a limit?",
        "List the token_stream_* helpers in src/ with path:line, and say whether any of them "
        "share the same limit default.",
        "def token_stream",
        (2, 8, 9),
        "There are 26 token_stream_* helpers in 14 modules; src/m02.py has the most (4, from "
        "src/m02.py:31), then src/m08.py and src/m09.py (3 each, src/m08.py:55, "
        "src/m09.py:13). Their limit defaults all differ (e.g. 412 at src/m02.py:31, 87 at "
        "src/m08.py:55); none is shared.",
        "The token_stream helpers sit in 14 modules, most in m02, m08 and m09; no two share a "
        "limit.",
    ),
)


FINAL_QUESTION = "Sum up what we learned about the member and token_stream helpers."
FOUND = ("src/m17.py", "src/m02.py")
"""What the two searches found: still in view when the last question is asked (checked)."""


def _search(search: Search, *, subagent: bool) -> list[Step]:
    """The steps of one wide search, inline or through the search sub-agent."""
    grep = ToolUseBlock("grep", {"pattern": search.pattern, "path": "src"})
    reads = [_read(i) for i in search.modules]
    if not subagent:
        return [
            _call("Let me search the modules.", grep),
            _call("Reading the three modules it points at.", *reads),
            _answer(search.answer),
        ]
    return [
        _call("I'll have this searched.", ToolUseBlock("search_agent", {"task": search.task})),
        _call("Searching.", grep),
        _call("Reading the three modules it points at.", *reads),
        _answer(search.conclusion),
        _answer(search.answer),
    ]


def scenario(*, subagent: bool = False) -> tuple[list[str], list[Step]]:
    """The questions and the scripted replies, in request order (see the module docstring)."""
    questions: list[str] = []
    steps: list[Step] = []

    def modules(q: int) -> None:
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

    def search(index: int) -> None:
        questions.append(SEARCHES[index].question)
        steps.extend(_search(SEARCHES[index], subagent=subagent))

    for q in range(5):
        modules(q)
    search(0)
    for q in range(5, 10):
        modules(q)
    questions.append("Have m01 and m02 changed since you read them? Compare with your notes.")
    steps.append(_call("Reading them again.", _read(1), _read(2)))
    steps.append(_answer("They are unchanged since I first read them."))
    search(1)
    questions.append("Compare m05 and m15 once more: which has the larger limits?")
    steps.append(_call("Reading both again.", _read(5), _read(15)))
    steps.append(_answer("m15's limits run a little higher than m05's."))
    questions.append("One more check run, and find where the limit defaults are set.")
    steps.append(_call("Running the checks and searching.", _run()))
    steps.append(
        _call("Now the search.", ToolUseBlock("grep", {"pattern": "limit=", "path": "src"}))
    )
    steps.append(_answer("The checks pass; every function sets its own limit default."))
    questions.append(FINAL_QUESTION)
    steps.append(
        _answer(
            "Member helpers: most in m17, m18 and m10; token_stream helpers: most in m02, m08 "
            "and m09, none sharing a limit. Every helper caps at its own default."
        )
    )
    return questions, steps


def wide_search(*, subagent: bool) -> tuple[list[str], list[Step]]:
    """One question answered by one wide search (how much it adds to the main conversation)."""
    first = SEARCHES[0]
    return [first.question], _search(first, subagent=subagent)
