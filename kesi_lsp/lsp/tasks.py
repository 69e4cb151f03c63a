"""The task text a command gives the agent: what to fix, where, and what the editor saw.

`kesi.fixThis` sends the file's relative path, the selected lines with their numbers (taken
from the editor's buffer, unsaved changes included), the diagnostics of the code action's
context and the user's optional instruction (design §2.3).

A selection is not a limit the user thinks about: "select all, fix this" on a generated file of
5,000 lines would put megabytes into one prompt (read_file itself refuses files over 256 KB).
So the excerpt is clipped at `MAX_EXCERPT_LINES` lines or `MAX_EXCERPT_BYTES`, whichever comes
first, at a line boundary, and the task says which lines were shown and that the model can
read the rest itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

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


MAX_EXCERPT_LINES: Final = 400
MAX_EXCERPT_BYTES: Final = 64 * 1024


def clipped_last(source: str, first: int, last: int) -> int:
    """The last line (0-based) of `first`..`last` the excerpt can show within both caps, as
    `numbered` formats it; `first - 1` when even line `first` alone is over the byte cap."""
    lines = split_lines(source)
    if not lines:
        return last  # an empty file: nothing to clip
    end = min(last, len(lines) - 1, first + MAX_EXCERPT_LINES - 1)
    width = len(str(end + 1))
    used = 0
    for number in range(first, end + 1):
        shown = f"{number + 1:>{width}} | {lines[number].rstrip(chr(13) + chr(10))}"
        used += len(shown.encode("utf-8")) + 1  # and its newline
        if used > MAX_EXCERPT_BYTES:
            return number - 1
    return end


def _span(first: int, last: int) -> str:
    """1-based `first`-`last` as the user reads it: `7`, or `7-12`."""
    return f"{first + 1}" if first == last else f"{first + 1}-{last + 1}"


def clip_note(rel: str, lines: tuple[int, int], shown: int, locale: Locale) -> str | None:
    """What the task says when the excerpt stops at line `shown` before the selection ends."""
    first, last = lines
    if shown >= last:
        return None
    caps = {"max_lines": MAX_EXCERPT_LINES, "max_kb": MAX_EXCERPT_BYTES // 1024}
    if shown < first:
        return text("lsp.task.clipped_none", locale, path=rel, lines=_span(first, last), **caps)
    shown_span, rest = _span(first, shown), _span(shown + 1, last)
    return text("lsp.task.clipped", locale, path=rel, shown=shown_span, rest=rest, **caps)


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
    *,
    shown: int | None = None,
) -> str:
    """The prompt of `kesi.fixThis`; `shown` is the last line in `excerpt` when it is clipped."""
    where = _span(*lines)
    parts = [text("lsp.task.fix", locale, path=rel, lines=where), "", excerpt]
    if shown is not None and (note := clip_note(rel, lines, shown, locale)) is not None:
        parts += ["", note]
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
    *,
    shown: int | None = None,
) -> str:
    """The prompt of `kesi.ask`: the user's words, plus where they are looking (`shown`: the
    last line in `excerpt` when it is clipped)."""
    parts = [prompt.strip()]
    note = None
    if rel is not None and lines is not None and shown is not None:
        note = clip_note(rel, lines, shown, locale)
    if rel is not None and lines is not None and (excerpt or note):
        parts += ["", text("lsp.task.selection", locale, path=rel, lines=_span(*lines))]
        parts += ["", excerpt] if excerpt else []
        parts += ["", note] if note else []
    elif rel is not None:
        parts += ["", text("lsp.task.current_file", locale, path=rel)]
    return "\n".join(parts)
