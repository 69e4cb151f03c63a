"""The output panel's one line per tool: the verdict of a command, the size of a read."""

from __future__ import annotations

from kesi_lsp.core.summary import SUMMARY_CHARS, summarize

PYTEST_OUTPUT = (
    "============================= test session starts ==============================\n"
    "collected 7 items\n\n"
    "test_pricing.py ...F.                                                    [ 71%]\n"
    "FAILED test_pricing.py::test_discount_at_exactly_1000 - assert 1000 == 900\n"
    "========================= 1 failed, 6 passed in 0.06s ==========================\n"
    "(exit code 1)"
)


def test_a_command_shows_its_verdict_and_exit_code_not_its_banner() -> None:
    line = summarize("run_command", PYTEST_OUTPUT, is_error=True, locale="en")
    assert line == "1 failed, 6 passed in 0.06s · (exit code 1)"


def test_a_silent_command_shows_its_single_line() -> None:
    assert summarize("run_command", "(no output) (exit code 0)", is_error=False, locale="en") == (
        "(no output) (exit code 0)"
    )


def test_a_read_shows_how_much_was_read_in_the_locale() -> None:
    assert summarize("read_file", "a\nb\nc\n", is_error=False, locale="en") == "read 3 lines"
    assert summarize("read_file", "a\nb", is_error=False, locale="zh-TW") == "讀了 2 行"


def test_errors_and_other_tools_show_their_first_line_clipped() -> None:
    error = "Error: file not found: x.py\nmore"
    first = summarize("read_file", error, is_error=True, locale="en")
    assert first == "Error: file not found: x.py"
    long = "x" * 500
    clipped = summarize("grep", long, is_error=False, locale="en")
    assert len(clipped) == SUMMARY_CHARS and clipped.endswith("…")
    assert summarize("list_files", "", is_error=False, locale="en") == ""
