"""The demo's own checks: pytest's verdict read right, and the diff judged."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.demo.checks import Failure, changed_lines, diff_against, run_tests
from kesi_lsp.demo.project import BUGGY_LINE, FAILING_TEST, FILES, FIXED_LINE, build


@pytest.mark.subprocess
def test_the_starting_failure_becomes_a_diagnostic_location(tmp_path: Path) -> None:
    state = run_tests(build(tmp_path / "p"))
    assert not state.green and state.exit_code == 1
    assert state.summary.startswith("1 failed, 6 passed in ")
    assert state.failures == (
        Failure(*FAILING_TEST, "test_discount_at_exactly_1000", "assert 1000 == 900"),
    )


@pytest.mark.subprocess
def test_after_the_fix_the_tests_are_green_and_the_diff_is_one_line(tmp_path: Path) -> None:
    project = build(tmp_path / "p")
    rules = project / "rules.py"
    rules.write_text(FILES["rules.py"].replace(BUGGY_LINE, FIXED_LINE), encoding="utf-8")
    state = run_tests(project)
    assert state.green and state.failures == ()
    assert state.summary.startswith("7 passed in ")
    diff = diff_against(project, FILES)
    assert list(diff.diffs) == ["rules.py"] and diff.new_files == ()
    assert "@@ -21,7 +21,7 @@" in diff.text()  # the hunk the seed shows
    assert changed_lines(diff.text()) == ([BUGGY_LINE.rstrip()], [FIXED_LINE.rstrip()])


@pytest.mark.subprocess
def test_a_green_run_by_deleting_the_test_still_shows_in_the_diff(tmp_path: Path) -> None:
    """Green is not enough (seed Day 13): the diff shows the test was removed."""
    project = build(tmp_path / "p")
    (project / "test_pricing.py").write_text(
        FILES["test_pricing.py"].replace("== 900", "== 1000"), encoding="utf-8"
    )
    (project / "notes.txt").write_text("x", encoding="utf-8")
    (project / "__pycache__").mkdir()
    (project / "__pycache__" / "x.pyc").write_bytes(b"")
    assert run_tests(project).green
    diff = diff_against(project, FILES)
    assert list(diff.diffs) == ["test_pricing.py"]
    assert diff.new_files == ("notes.txt",)  # Python's own caches are not listed
    removed, added = changed_lines(diff.text())
    assert removed == ["    assert checkout([(1000, 1)]) == 900"]
    assert added == ["    assert checkout([(1000, 1)]) == 1000"]


def test_a_deleted_original_file_is_a_change(tmp_path: Path) -> None:
    project = build(tmp_path / "p")
    (project / "utils.py").unlink()
    diff = diff_against(project, FILES)
    assert list(diff.diffs) == ["utils.py"] and not diff.unchanged
