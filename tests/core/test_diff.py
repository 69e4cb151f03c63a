"""unified_diff: what the reviewer sees must be exactly what will land."""

from __future__ import annotations

from kesi_lsp.core.diff import split_lines, unified_diff


def test_changed_line() -> None:
    assert unified_diff("src/a.py", "x = 1\ny = 2\n", "x = 1\ny = 3\n") == (
        "--- a/src/a.py\n+++ b/src/a.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n"
    )


def test_new_file_comes_from_dev_null() -> None:
    assert unified_diff("n.txt", None, "a\nb\n") == (
        "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n"
    )


def test_new_empty_file_has_headers() -> None:
    assert unified_diff("e.txt", None, "") == "--- /dev/null\n+++ b/e.txt\n"


def test_identical_is_empty() -> None:
    assert unified_diff("a", "same\n", "same\n") == ""


def test_missing_final_newline_is_marked() -> None:
    diff = unified_diff("a", "x\n", "x")
    assert diff.endswith("-x\n+x\n\\ No newline at end of file\n")


def test_crlf_is_kept_and_changes_of_line_end_show() -> None:
    diff = unified_diff("w.txt", "a\r\nb\r\n", "a\nb\r\n")
    assert "-a\r\n" in diff
    assert "+a\n" in diff


def test_only_real_line_breaks_split() -> None:
    assert split_lines("a\u2028b\x0cc\n") == ["a\u2028b\x0cc\n"]
    assert split_lines("a\r\nb\rc\nd") == ["a\r\n", "b\r", "c\n", "d"]
    assert split_lines("") == []


def test_context_lines() -> None:
    before = "".join(f"{i}\n" for i in range(20))
    after = before.replace("10\n", "ten\n")
    diff = unified_diff("n", before, after, context=1)
    assert "@@ -10,3 +10,3 @@\n 9\n-10\n+ten\n 11\n" in diff
