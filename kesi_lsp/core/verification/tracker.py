"""Was the run verified? Decided from what really ran, never from what the model says.

The book's test–fix loop makes "done" mean verified; Day 16's prompt already asks the model to
run the tests after changing code and to say so when it could not. This tracker watches the
run's events and reaches its own verdict (design §2.10):

- `verified`: after the run's last change, a check (tests, a build, a type checker, a linter:
  `kesi_lsp.core.verification.checks`) exited 0, and the editor reports no errors the run
  introduced into the files it changed;
- `failed`: the last check after the last change failed (or was stopped);
- `unverified`: anything else: no check ran after the last change, or one passed while the
  editor reports new errors.

A change is an edit that landed or a command that changed files open in the editor. A run that
changed nothing and checked nothing gets no verdict (there is nothing to verify).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.diagnostics.editor import EditorProblem
from kesi_lsp.core.events import CommandFinished, EditApplied, Event, ProblemsReported
from kesi_lsp.core.verification.checks import is_check
from kesi_lsp.core.verification.verdict import Verdict


@dataclass(frozen=True)
class _Check:
    command: str
    passed: bool
    summary: str
    step: int


@dataclass
class Verification:
    """Feed it a run's events (`feed` is an EventSink); ask for the `verdict` at the end."""

    locale: Locale
    _step: int = 0
    _changes: int = 0
    _last_change: int = -1
    _last_check: _Check | None = None
    _outstanding: dict[str, tuple[EditorProblem, ...]] = field(default_factory=dict)

    def feed(self, event: Event) -> None:
        self._step += 1
        match event:
            case EditApplied():
                self._changed()
            case CommandFinished(command=command, exit_code=code, timed_out=late, changed=changed):
                if changed:
                    self._changed()
                if is_check(command):
                    passed = code == 0 and not late
                    self._last_check = _Check(command, passed, event.summary, self._step)
            case ProblemsReported(checked=checked, outstanding=outstanding, available=True):
                for rel in checked:
                    self._outstanding[rel] = tuple(p for p in outstanding if p.rel == rel)
            case _:
                pass

    def _changed(self) -> None:
        self._changes += 1
        self._last_change = self._step

    def verdict(self) -> Verdict | None:
        check = self._last_check
        if self._changes == 0 and check is None:
            return None
        if check is None or check.step < self._last_change:
            key = "verify.no_check" if check is None else "verify.check_before_change"
            by = None if check is None else check.command
            return Verdict("unverified", by, self._say(key, command=by or ""))
        if not check.passed:
            return Verdict(
                "failed", check.command, self._say("verify.failed", **self._fields(check))
            )
        errors = [p for problems in self._outstanding.values() for p in problems]
        if errors:
            files = text("common.list_sep", self.locale).join(sorted({p.rel for p in errors}))
            detail = self._say(
                "verify.new_errors", count=len(errors), files=files, **self._fields(check)
            )
            return Verdict("unverified", check.command, detail)
        return Verdict("verified", check.command, self._say("verify.passed", **self._fields(check)))

    def _fields(self, check: _Check) -> dict[str, object]:
        summary = f" ({check.summary})" if check.summary else ""
        return {"command": check.command, "summary": summary}

    def _say(self, key: str, **fields: object) -> str:
        return text(key, self.locale, **fields)
