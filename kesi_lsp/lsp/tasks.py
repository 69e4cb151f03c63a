"""The task text a command gives the agent: what to fix, where, and what the editor saw.

`kesi.fixThis` sends the file's relative path, the selected lines with their numbers (taken
from the editor's buffer, unsaved changes included), the diagnostics of the code action's
context and the user's optional instruction (design §2.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.diff import split_lines

_SEVERITY = {
    types.DiagnosticSeverity.Error: "error",
    types.DiagnosticSeverity.Warning: "warning",
    types.DiagnosticSeverity.Information: "info",
    types.DiagnosticSeverity.Hint: "hint",
}


def line_span(start_line: int, end_line: int, end_character: int) -> tuple[int, int]:
    """0-based inclusive lines a range covers (a range ending at column 0 stops before)."""
    last = end_line - 1 if end_character == 0 and end_line > start_line else end_line
    return start_line, max(start_line, last)


def numbered(source: str, first: int, last: int) -> str:
    """Lines `first`..`last` (0-based, inclusive) of `source`, numbered from 1 like `cat -n`."""
    lines = split_lines(source)
    if not lines:
        return ""
    first = min(first, len(lines) - 1)
    last = min(last, len(lines) - 1)
    width = len(str(last + 1))
    return "\n".join(
        f"{number + 1:>{width}} | {lines[number].rstrip(chr(13) + chr(10))}"
        for number in range(first, last + 1)
    )


def describe_diagnostic(diag: types.Diagnostic) -> str:
    severity = _SEVERITY.get(diag.severity, "") if diag.severity else ""
    origin = " ".join(str(part) for part in (diag.source, diag.code) if part not in (None, ""))
    parts = [f"line {diag.range.start.line + 1}:"]
    if severity:
        parts.append(severity)
    if origin:
        parts.append(f"[{origin}]")
    parts.append(" ".join(diag.message.split()))
    return "- " + " ".join(parts)


def fix_task(
    rel: str,
    excerpt: str,
    lines: tuple[int, int],
    diagnostics: Sequence[types.Diagnostic],
    instruction: str | None,
    locale: Locale,
) -> str:
    """The prompt of `kesi.fixThis`."""
    first, last = lines[0] + 1, lines[1] + 1
    where = f"{first}" if first == last else f"{first}-{last}"
    parts = [text("lsp.task.fix", locale, path=rel, lines=where), "", excerpt]
    if diagnostics:
        parts += ["", text("lsp.task.diagnostics", locale)]
        parts += [describe_diagnostic(d) for d in diagnostics]
    if instruction and instruction.strip():
        parts += ["", text("lsp.task.instruction", locale, instruction=instruction.strip())]
    else:
        parts += ["", text("lsp.task.fix_default", locale)]
    return "\n".join(parts)


def ask_task(
    prompt: str,
    rel: str | None,
    excerpt: str | None,
    lines: tuple[int, int] | None,
    locale: Locale,
) -> str:
    """The prompt of `kesi.ask`: the user's words, plus where they are looking."""
    parts = [prompt.strip()]
    if rel is not None and excerpt and lines is not None:
        first, last = lines[0] + 1, lines[1] + 1
        where = f"{first}" if first == last else f"{first}-{last}"
        parts += ["", text("lsp.task.selection", locale, path=rel, lines=where), "", excerpt]
    elif rel is not None:
        parts += ["", text("lsp.task.current_file", locale, path=rel)]
    return "\n".join(parts)
