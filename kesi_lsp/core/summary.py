"""One line per tool result for an output panel: what a user glancing at it wants to know.

The model gets the whole result; the user's panel gets one line. The first line is right for
most tools (an error message, the first match, "Replaced (starting at line 20)"), but not for
two: a command's first line is usually a banner ("===== test session starts =====") while its
verdict is at the end, and a file's first line says nothing about the read.
"""

from __future__ import annotations

from typing import Final

from kesi_lsp.catalog import Locale, text

SUMMARY_CHARS: Final = 160


def _clip(line: str) -> str:
    return line if len(line) <= SUMMARY_CHARS else line[: SUMMARY_CHARS - 1] + "…"


def _lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip()]


def _command(lines: list[str]) -> str:
    """The last output line (decoration stripped) and the exit note, e.g. `7 passed · (exit 0)`.

    The notes (timeout, signal, exit code) always come last, on the same line as the end of
    the output when the output did not end with a newline.
    """
    if len(lines) < 2:
        return lines[0] if lines else ""
    verdict = lines[-2].strip("=-_ ") or lines[-2]
    return f"{verdict} · {lines[-1]}"


def summarize(tool: str, output: str, *, is_error: bool, locale: Locale) -> str:
    """A one-line digest of `tool`'s result `output`."""
    lines = _lines(output)
    if not lines:
        return ""
    if tool == "run_command":
        return _clip(_command(lines))
    if tool == "read_file" and not is_error:
        count = output.count("\n") + (0 if output.endswith("\n") else 1)
        return text("loop.summary.read", locale, lines=count)
    return _clip(lines[0])
