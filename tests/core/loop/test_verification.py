"""The run's verdict comes from what really ran after the last change, never from the model's
words (design §2.10)."""

from __future__ import annotations

import stat
from pathlib import Path

from kesi_lsp.core.diagnostics.editor import EditorProblem
from kesi_lsp.core.events import CommandFinished, EditApplied, ProblemsReported
from kesi_lsp.core.verification.tracker import Verification
from kesi_lsp.core.verification.verdict import Verdict
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import MakeAgent

EDIT = EditApplied("edit_file", "rates.py", "")
PASS = CommandFinished("pytest -q", 0, False, summary="7 passed · (exit code 0)")
FAIL = CommandFinished("pytest -q", 1, False, summary="1 failed · (exit code 1)")
ERROR = EditorProblem("rates.py", 9, "error", '"x" is not defined', "pyright")


def verdict(*events: object) -> Verdict | None:
    tracker = Verification("en")
    for event in events:
        tracker.feed(event)  # type: ignore[arg-type]
    return tracker.verdict()


def test_a_passing_check_after_the_last_change_verifies() -> None:
    assert verdict(EDIT, PASS) == Verdict(
        "verified", "pytest -q", "pytest -q passed after the last change (7 passed · (exit code 0))"
    )


def test_the_last_check_decides() -> None:
    assert verdict(EDIT, PASS, FAIL).status == "failed"  # type: ignore[union-attr]
    assert verdict(EDIT, FAIL, PASS).status == "verified"  # type: ignore[union-attr]
    late = CommandFinished("pytest -q", None, True, summary="")
    assert verdict(EDIT, late).status == "failed"  # type: ignore[union-attr]


def test_a_check_before_the_last_change_does_not_count() -> None:
    result = verdict(EDIT, PASS, EDIT)
    assert result == Verdict(
        "unverified", "pytest -q", "pytest -q ran before the last change, not after it"
    )


def test_commands_that_are_not_checks_verify_nothing() -> None:
    listing = CommandFinished("ls", 0, False)
    piped = CommandFinished("pytest -q | tail -3", 0, False)
    assert verdict(EDIT, listing, piped) == Verdict(
        "unverified", None, "no test, build or linter ran after the last change"
    )


def test_a_command_that_changed_open_files_is_a_change() -> None:
    formatter = CommandFinished("ruff format .", 0, False, changed=("rates.py",))
    assert verdict(PASS, formatter).status == "unverified"  # type: ignore[union-attr]


def test_new_errors_in_the_editor_keep_a_green_run_unverified() -> None:
    broken = ProblemsReported(("rates.py",), new=(ERROR,), outstanding=(ERROR,))
    result = verdict(EDIT, broken, PASS)
    assert result is not None and result.status == "unverified"
    assert result.detail.endswith("but the editor reports 1 new error(s) in rates.py")
    fixed = ProblemsReported(("rates.py",), new=(), outstanding=())
    assert verdict(EDIT, broken, EDIT, fixed, PASS).status == "verified"  # type: ignore[union-attr]


def test_a_run_that_changed_and_checked_nothing_has_no_verdict() -> None:
    assert verdict() is None
    assert verdict(CommandFinished("git log", 0, False)) is None


def fake_tests(root: Path, passing: bool) -> None:
    script_path = root / "pytest"
    script_path.write_text(f"#!/bin/sh\necho '7 passed'\nexit {0 if passing else 1}\n")
    script_path.chmod(script_path.stat().st_mode | stat.S_IXUSR)


EDIT_CALL = tool_use(
    "edit_file", {"file_path": "rates.py", "old_string": "> 100", "new_string": ">= 100"}
)


async def test_through_the_loop_the_models_word_never_verifies(make_agent: MakeAgent) -> None:
    steps = script(
        reply("Fixing.", EDIT_CALL),
        reply("All tests pass now, verified!"),
        reply("Running them.", tool_use("run_command", {"command": "./pytest -q"})),
        reply("Now they really pass."),
    )
    agent = make_agent(steps, locale="en")
    root = agent.ctx.session.root
    (root / "rates.py").write_text("if amount > 100:\n    pass\n")
    fake_tests(root, passing=True)
    boasted = await agent.ask("fix it")
    assert boasted.verified == Verdict(
        "unverified", None, "no test, build or linter ran after the last change"
    )
    checked = await agent.ask("run the tests")
    assert checked.verified is not None and checked.verified.status == "verified"
    assert checked.verified.by == "./pytest -q"
    assert "7 passed" in checked.verified.detail


async def test_through_the_loop_a_failing_check_fails(make_agent: MakeAgent) -> None:
    steps = script(
        reply("Fixing.", EDIT_CALL),
        reply("Testing.", tool_use("run_command", {"command": "./pytest -q"})),
        reply("Still failing."),
    )
    agent = make_agent(steps, locale="zh-TW")
    root = agent.ctx.session.root
    (root / "rates.py").write_text("if amount > 100:\n    pass\n")
    fake_tests(root, passing=False)
    finished = await agent.ask("fix it")
    assert finished.verified is not None and finished.verified.status == "failed"
    assert finished.verified.detail.startswith("最後一次修改之後，./pytest -q 失敗")
    assert (root / "rates.py").read_text() == "if amount >= 100:\n    pass\n"
