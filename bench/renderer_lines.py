"""How much of each editor client turns KeSi's events into text (issue 25): counted, not guessed.

`python -m bench.renderer_lines` prints, for VS Code, Neovim and Emacs, the lines of code that
render a run's story (tool lines and their details, notices, bills, the plan's words, the end of
a run, the words of an edit review) at the baseline commit, before the server sent its own
lines, and at HEAD (or `--after REV`). One list of pieces below serves both revisions, so the
figures compare like with like: a piece a revision does not have counts 0, and a renderer added
later must be named here too. What is styling and the editor's own UI (faces and highlight
groups, marks, folding, placement, key bindings, commands, the status line) is not counted.

A line counts when it is neither blank nor only a comment (`//`, `/*`, `*`, `--`, `;`). A piece
is a whole file, a named function (method, table, constant) from its first line to its closing
line, or the lines of a message table whose key matches a pattern.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "a04830a"
"""main when the work on issue 25 began: every client still rendered the story itself."""


@dataclass(frozen=True)
class Piece:
    client: str
    path: str
    names: tuple[str, ...] = ()  # functions, methods, tables; empty with `keys` or the file
    keys: str | None = None  # a pattern for the lines of a message table


VSCODE = "editors/vscode/src/"
NVIM = "editors/nvim/lua/kesi/"
EMACS = "editors/emacs/"

PIECES = (
    Piece("vscode", VSCODE + "core/stream.ts"),
    Piece("vscode", VSCODE + "core/protocol.ts", ("renderedLines",)),
    Piece(
        "vscode",
        VSCODE + "core/messages.ts",
        ("formatUsd", "count", "formatBill", "runEndWord", "verdictWord"),
    ),
    Piece("vscode", VSCODE + "core/messages.ts", keys=r'"(run\.end|verify|plan|bill|review)\.'),
    Piece(
        "vscode",
        VSCODE + "core/plan.ts",
        ("planDone", "planSummary", "stepInProgress", "STATUS_KEY", "planRows", "planLines"),
    ),
    Piece(
        "vscode",
        VSCODE + "core/review.ts",
        ("reviewChoices", "decisionFor", "reviewTitle", "reviewQuestion", "reviewActions"),
    ),
    Piece(
        "nvim",
        NVIM + "output.lua",
        (
            "describe_input",
            "tool_start",
            "tool_end",
            "calm",
            "notice",
            "format_bill",
            "bill",
            "startup",
            "edit_applied",
            "verdict_marks",
            "verdict",
            "finish",
            "story",
            "rendered",
        ),
    ),
    Piece("nvim", NVIM + "handlers.lua", ("stream", "run_finished", "plan")),
    Piece("nvim", NVIM + "plan.lua", ("done", "step", "lines", "record")),
    Piece("nvim", NVIM + "runs.lua", ("format_cost", "footer")),
    Piece("nvim", NVIM + "review.lua", ("key_help", "decisions", "actions_help")),
    Piece(
        "emacs",
        EMACS + "kesi-stream.el",
        (
            "kesi--bill-words",
            "kesi--thousands",
            "kesi-stream-bill-line",
            "kesi-stream-describe-input",
            "kesi--tool-end",
            "kesi--usage",
            "kesi-stream-event",
            "kesi-stream-status",
            "kesi-stream-footer",
            "kesi-stream-finish",
            "kesi-stream-lines",
            "kesi-stream--show",
            "kesi-stream-close",
        ),
    ),
    Piece(
        "emacs",
        EMACS + "kesi-plan.el",
        (
            "kesi--plan-words",
            "kesi-plan--word",
            "kesi-plan-marks",
            "kesi-plan-step",
            "kesi-plan-lines",
            "kesi-plan-record",
            "kesi-plan-verdict",
            "kesi-plan-verdict-mark",
            "kesi-plan-verdict-line",
        ),
    ),
    Piece("emacs", EMACS + "kesi-output.el", ("kesi-output-calm-notices", "kesi--notice")),
    Piece(
        "emacs",
        EMACS + "kesi-review.el",
        ("kesi-review--help", "kesi-review--said", "kesi-review--actions"),
    ),
)
CLIENTS = ("vscode", "nvim", "emacs")

_COMMENT = re.compile(r"^\s*(//|/\*|\*|--|;)")


def source(rev: str | None, path: str) -> list[str]:
    """The file's lines at REV (None: the work tree); none when it does not exist there."""
    if rev is None:
        file = ROOT / path
        return file.read_text(encoding="utf-8").splitlines() if file.exists() else []
    shown = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True
    )
    return shown.stdout.splitlines() if shown.returncode == 0 else []


def _start(line: str, name: str, path: str) -> re.Match[str] | None:
    word = re.escape(name)
    if path.endswith(".el"):
        return re.match(rf"()\((defun|defconst|defvar|defmacro|defcustom) {word}(\s|$)", line)
    if path.endswith(".lua"):
        return re.match(
            rf"(\s*)(local\s+)?(function\s+(M\.)?{word}\s*\(|(M\.)?{word}\s*=\s*[{{(])", line
        )
    return re.match(
        rf"(\s*)(export\s+)?((private|public|readonly|async)\s+)*"
        rf"(function\s+{word}\b|const\s+{word}\b|class\s+{word}\b|{word}\s*\()",
        line,
    )


def _one_line(line: str, path: str) -> bool:
    """Whether a definition ends on its first line: its brackets close there (and a Lua
    function's `end` is there too)."""
    if path.endswith(".lua") and re.search(r"\bfunction\b", line):
        return re.search(r"\bend\s*,?$", line) is not None
    opened = sum(line.count(c) for c in "{([") - sum(line.count(c) for c in "})]")
    return opened <= 0 and not re.search(r"[{(\[]\s*$", line)


def extent(lines: list[str], name: str, path: str) -> Iterator[str]:
    """The lines of the definition of NAME: from its first line to its closing one."""
    for at, line in enumerate(lines):
        found = _start(line, name, path)
        if found is None:
            continue
        indent = found.group(1)
        if path.endswith(".el"):
            end = next(
                (i for i in range(at + 1, len(lines)) if re.match(r"(\(|;;;)", lines[i])),
                len(lines),
            )
        elif _one_line(line, path):
            end = at + 1
        else:
            closing = re.compile(rf"{re.escape(indent)}(end|[}})\]])")
            end = next(
                (i + 1 for i in range(at + 1, len(lines)) if closing.match(lines[i])), len(lines)
            )
        yield from lines[at:end]
        return


def code(lines: Iterable[str]) -> int:
    return sum(1 for line in lines if line.strip() and not _COMMENT.match(line))


def count(piece: Piece, rev: str | None) -> int:
    lines = source(rev, piece.path)
    if piece.keys is not None:
        return code(line for line in lines if re.search(piece.keys, line))
    if not piece.names:
        return code(lines)
    return sum(code(extent(lines, name, piece.path)) for name in piece.names)


def totals(rev: str | None) -> dict[str, int]:
    """Renderer lines per client at REV (None: the work tree)."""
    out = dict.fromkeys(CLIENTS, 0)
    for piece in PIECES:
        out[piece.client] += count(piece, rev)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.renderer_lines", description=__doc__)
    parser.add_argument("--before", default=BASELINE, help=f"revision (default {BASELINE})")
    parser.add_argument("--after", default=None, help="revision (default: the work tree)")
    parser.add_argument("--pieces", action="store_true", help="also print each piece's count")
    args = parser.parse_args(argv)
    before, after = totals(args.before), totals(args.after)
    if args.pieces:
        for piece in PIECES:
            what = piece.keys or ", ".join(piece.names) or "(the whole file)"
            print(
                f"{piece.path}: {what}: {count(piece, args.before)} -> {count(piece, args.after)}"
            )
    print(f"{'client':8} {'before':>7} {'after':>7} {'after/before':>13}")
    for client in CLIENTS:
        ratio = after[client] / before[client] if before[client] else 0.0
        print(f"{client:8} {before[client]:7} {after[client]:7} {ratio:13.2f}")
    b, a = sum(before.values()), sum(after.values())
    print(f"{'all':8} {b:7} {a:7} {a / b if b else 0.0:13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
