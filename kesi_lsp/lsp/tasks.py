"""The task of `kesi.fixThis` in LSP terms: the code action's diagnostics as the core's problems.

The task text itself is the core's (`kesi_lsp.core.tasks`), the same for every front end; all
that is LSP here is the `Diagnostic` type and its numeric severities.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from lsprotocol import types

from kesi_lsp.catalog import Locale
from kesi_lsp.core import Problem, Severity
from kesi_lsp.core import fix_task as core_fix_task

_SEVERITY: Final[dict[types.DiagnosticSeverity, Severity]] = {
    types.DiagnosticSeverity.Error: "error",
    types.DiagnosticSeverity.Warning: "warning",
    types.DiagnosticSeverity.Information: "info",
    types.DiagnosticSeverity.Hint: "hint",
}


def problem(diagnostic: types.Diagnostic) -> Problem:
    """What the task says about one diagnostic: its line, severity, origin and message."""
    severity = _SEVERITY.get(diagnostic.severity) if diagnostic.severity else None
    return Problem(
        line=diagnostic.range.start.line,
        message=diagnostic.message,
        severity=severity,
        source=diagnostic.source,
        code=diagnostic.code,
    )


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
    """The prompt of `kesi.fixThis` (see `kesi_lsp.core.tasks.fix_task`)."""
    problems = [problem(d) for d in diagnostics]
    return core_fix_task(rel, excerpt, lines, problems, instruction, locale, shown=shown)
