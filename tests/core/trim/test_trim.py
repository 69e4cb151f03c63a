"""Context trimming, as pure functions over a history and the read records."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kesi_lsp.catalog import Locale
from kesi_lsp.core.history import check_history
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.trim import (
    PLACEHOLDER_MARK,
    TrimPolicy,
    TrimReport,
    apply,
    estimate_tokens,
    history_tokens,
    iter_cleared,
    plan,
    policy_for,
    trim_session,
)
from tests.core.trim.history_builder import Conversation, request_problems, result_of, source

NO_CACHE = TrimPolicy(
    budget_tokens=1_000_000, target_tokens=500_000, keep_recent=1, superseded_now=True
)
CACHED = TrimPolicy(
    budget_tokens=1_000_000, target_tokens=500_000, keep_recent=1, superseded_now=False
)


def clear_all_but(
    conv: Conversation,
    keep_recent: int,
    *,
    reads: dict[Path, str] | None = None,
    root: Path = Path("/nowhere"),
    locale: Locale = "en",
) -> TrimReport:
    """Apply the plan for a budget nothing fits in: all but the newest `keep_recent` go."""
    policy = TrimPolicy(budget_tokens=1, target_tokens=0, keep_recent=keep_recent)
    cuts = plan(conv.history, policy)
    return apply(conv.history, {} if reads is None else reads, root, cuts, locale)


def test_estimate_counts_ascii_by_four_and_cjk_by_one() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd" * 100) == 100
    assert estimate_tokens("訂單試算") == 4
    assert estimate_tokens("滿千折百 ok") == 4 + 1


def _reread(conv: Conversation) -> tuple[str, str]:
    first = conv.call("read_file", source("rules", 200), file_path="rules.py")
    conv.answer("It holds the discount rules.", "Read it again, please.")
    second = conv.call("read_file", source("rules", 200), file_path="./rules.py")
    conv.answer("Same as before.", "And now?")
    return first, second


def test_without_a_cache_a_superseded_read_is_cleared_and_the_newer_one_kept() -> None:
    conv = Conversation()
    first, second = _reread(conv)
    cuts = plan(conv.history, NO_CACHE)
    assert [(c.use_id, c.reason) for c in cuts] == [(first, "superseded")]
    apply(conv.history, {}, Path("/nowhere"), cuts, "en")
    assert result_of(conv.history, first)["content"].startswith(PLACEHOLDER_MARK)
    assert result_of(conv.history, second)["content"] == source("rules", 200)


def test_with_a_cache_superseded_results_wait_for_the_budget() -> None:
    """Clearing a few hundred tokens would make the next request rewrite the cache."""
    conv = Conversation()
    _reread(conv)
    assert plan(conv.history, CACHED) == []


def test_a_read_of_another_part_supersedes_nothing() -> None:
    """Ranged reads (Days 06 and 10): lines 1-200 and lines 201-400 answer different questions;
    only the same part read again replaces the older read."""
    conv = Conversation()
    whole = conv.call("read_file", source("big", 200), file_path="big.py")
    conv.answer("Long.", "And the next part?")
    part = conv.call("read_file", source("big", 200), file_path="big.py", offset=201)  # type: ignore[arg-type]
    conv.answer("More.", "That part again?")
    assert plan(conv.history, NO_CACHE) == []
    again = conv.call("read_file", source("big", 200), file_path="big.py", offset=201)  # type: ignore[arg-type]
    conv.answer("Same.", "ok")
    cuts = plan(conv.history, NO_CACHE)
    assert [c.use_id for c in cuts] == [part] and whole != again


def test_a_failed_reread_supersedes_nothing() -> None:
    conv = Conversation()
    first = conv.call("read_file", source("a", 200), file_path="a.py")
    conv.answer("ok", "again")
    conv.call("read_file", "Error: a.py does not exist", is_error=True, file_path="a.py")
    conv.answer("gone", "and?")
    assert first not in {c.use_id for c in plan(conv.history, NO_CACHE)}


def test_same_command_or_search_again_supersedes_the_older_output() -> None:
    conv = Conversation()
    tests_1 = conv.call(
        "run_command", source("t", 100) + "1 failed\n(exit code 1)", command="pytest"
    )
    grep_1 = conv.call("grep", source("g", 100), pattern="def ", path="src")
    conv.call("grep", source("h", 100), pattern="def ", path="lib")  # another search: kept
    conv.answer("One test fails.", "Fixed, run them again.")
    conv.call("run_command", source("t", 100) + "5 passed\n(exit code 0)", command="pytest")
    conv.call("grep", source("g", 100), pattern="def ", path="src")
    conv.answer("All green.", "Thanks.")
    assert {c.use_id for c in plan(conv.history, NO_CACHE)} == {tests_1, grep_1}


def test_small_results_are_never_worth_a_placeholder() -> None:
    conv = Conversation()
    conv.call("list_files", "a.py\nb.py")
    conv.call("list_files", "a.py\nb.py\nc.py")
    conv.answer("three files", "ok")
    assert plan(conv.history, NO_CACHE) == []


def test_edit_and_write_results_are_never_cleared() -> None:
    conv = Conversation()
    for _ in range(2):
        conv.call("edit_file", "x" * 4000, file_path="a.py", old_string="a", new_string="b")
    conv.answer("done", "ok")
    policy = TrimPolicy(budget_tokens=10, target_tokens=5, keep_recent=0)
    assert plan(conv.history, policy) == []


def _big_session(reads: int, lines: int = 400) -> tuple[Conversation, list[str]]:
    conv = Conversation()
    ids = []
    for i in range(reads):
        ids.append(conv.call("read_file", source(f"m{i}", lines), file_path=f"m{i}.py"))
        conv.answer(f"m{i}.py defines helpers.", f"Now look at m{i + 1}.py")
    return conv, ids


def test_passing_the_budget_clears_the_oldest_results_down_to_the_target() -> None:
    conv, ids = _big_session(10)
    total = history_tokens(conv.history)
    policy = TrimPolicy(budget_tokens=total - 1, target_tokens=total // 2, keep_recent=2)
    cuts = plan(conv.history, policy)
    cleared = [c.use_id for c in cuts]
    assert cleared == ids[: len(cleared)], "oldest first"
    assert all(c.reason == "budget" for c in cuts)
    apply(conv.history, {}, Path("/nowhere"), cuts, "en")
    after = history_tokens(conv.history)
    assert after <= total // 2
    # Hysteresis: no trim again until the budget is passed again.
    assert plan(conv.history, policy) == []
    assert after > total // 2 - estimate_tokens(source("m0", 400)), "no more than needed"


def test_superseded_results_go_first_when_the_budget_is_passed() -> None:
    conv, ids = _big_session(6)
    again = conv.call("read_file", source("m4", 400), file_path="m4.py")
    conv.answer("m4 again", "next")
    total = history_tokens(conv.history)
    small_cut = total - estimate_tokens(source("m4", 400)) // 2
    policy = TrimPolicy(budget_tokens=total - 1, target_tokens=small_cut, keep_recent=1)
    cuts = plan(conv.history, policy)
    assert [(c.use_id, c.reason) for c in cuts] == [(ids[4], "superseded")]
    assert again not in {c.use_id for c in cuts}


def test_the_newest_results_are_never_cleared() -> None:
    conv, ids = _big_session(6)
    policy = TrimPolicy(budget_tokens=1, target_tokens=0, keep_recent=3)
    cleared = {c.use_id for c in plan(conv.history, policy)}
    assert cleared == set(ids[:3])


def test_results_the_model_has_not_seen_yet_are_never_cleared() -> None:
    """Mid-run, the history ends with tool results: they are what the next request is for."""
    conv = Conversation()
    huge = conv.call("run_command", "line\n" * 50_000, command="cat big.log")
    policy = TrimPolicy(budget_tokens=1, target_tokens=0, keep_recent=0)
    assert plan(conv.history, policy) == []
    conv.answer("It is a long log.", "Summarise it.")
    assert [c.use_id for c in plan(conv.history, policy)] == [huge]


def test_pairing_stays_valid_for_a_strict_api() -> None:
    conv, _ = _big_session(8)
    conv.call("run_command", source("out", 300) + "(exit code 0)", command="make")
    conv.call("grep", source("hits", 300), pattern="TODO")
    conv.answer("done", "next")
    before = [(m["role"], len(m["content"])) for m in conv.history]
    report = clear_all_but(conv, 1)
    assert len(report.cleared) == 9
    assert [(m["role"], len(m["content"])) for m in conv.history] == before
    assert check_history(conv.history) == []
    assert request_problems(conv.history) == []


def test_placeholders_say_what_was_there_and_how_to_get_it_again() -> None:
    conv = Conversation()
    read = conv.call("read_file", source("rules", 300), file_path="rules.py")
    run = conv.call(
        "run_command",
        source("pytest", 300) + "FAILED test_pricing.py::test_discount\n1 failed, 4 passed\n"
        "(exit code 1)",
        command="python -m pytest -q",
    )
    search = conv.call("grep", source("hits", 300), pattern="discount", path=".")
    conv.answer("One test fails.", "Why?")
    clear_all_but(conv, 0)
    read_text = result_of(conv.history, read)["content"]
    assert "rules.py" in read_text and "300 lines" in read_text
    assert "call read_file again" in read_text and "no longer counts as read" in read_text
    run_text = result_of(conv.history, run)["content"]
    assert "`python -m pytest -q`" in run_text and "1 failed, 4 passed" in run_text
    assert "(exit code 1)" in run_text and "Run it again" in run_text
    search_text = result_of(conv.history, search)["content"]
    assert "grep" in search_text and '"pattern": "discount"' in search_text
    assert all(len(t) < 400 for t in (read_text, run_text, search_text))


def test_placeholders_follow_the_locale() -> None:
    conv = Conversation()
    read = conv.call("read_file", source("rules", 300), file_path="rules.py")
    conv.answer("好", "下一題")
    clear_all_but(conv, 0, locale="zh-TW")
    assert "重新用 read_file 讀取" in result_of(conv.history, read)["content"]


def test_is_error_is_kept_and_list_content_is_understood() -> None:
    conv = Conversation()
    use_id = conv.call("run_command", "x", command="make")
    block = result_of(conv.history, use_id)
    block["content"] = [{"type": "text", "text": source("make", 300) + "(exit code 2)"}]
    block["is_error"] = True
    conv.answer("make failed", "why?")
    clear_all_but(conv, 0)
    cleared = result_of(conv.history, use_id)
    assert cleared["is_error"] is True
    assert "(exit code 2)" in cleared["content"]


def test_trimming_is_deterministic_and_never_touches_a_block_twice() -> None:
    """The cached prefix must stay byte-identical between trims."""
    conv, ids = _big_session(8)
    twin = conv.copy()
    policy = TrimPolicy(budget_tokens=1, target_tokens=0, keep_recent=2)
    for c in (conv, twin):
        apply(c.history, {}, Path("/nowhere"), plan(c.history, policy), "en")
    assert conv.snapshot() == twin.snapshot()
    first = {use_id: dict(result_of(conv.history, use_id)) for use_id in iter_cleared(conv.history)}
    assert set(first) == set(ids[:6])
    conv.call("read_file", source("new", 400), file_path="new.py")
    conv.answer("new", "next")
    report = apply(conv.history, {}, Path("/nowhere"), plan(conv.history, policy), "en")
    assert {c.use_id for c in report.cleared} == {ids[6]}, "only what left the protected window"
    for use_id, block in first.items():
        assert result_of(conv.history, use_id) == block


def test_clearing_the_latest_read_forgets_the_read_record(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a", encoding="utf-8")
    (tmp_path / "b.py").write_text("b", encoding="utf-8")
    reads = {tmp_path / "a.py": "sha-a", tmp_path / "b.py": "sha-b"}
    conv = Conversation()
    old_a = conv.call("read_file", source("a", 300), file_path="a.py")
    conv.call("read_file", source("b", 300), file_path="./b.py")
    conv.answer("read both", "again a")
    conv.call("read_file", source("a", 300), file_path="a.py")
    conv.answer("a again", "next")
    # Clear only the old read of a.py (superseded): the newer read still backs the record.
    report = apply(conv.history, reads, tmp_path, plan(conv.history, NO_CACHE), "en")
    assert [c.use_id for c in report.cleared] == [old_a]
    assert report.forgotten == ()
    assert set(reads) == {tmp_path / "a.py", tmp_path / "b.py"}
    # Now the budget clears everything but the newest: b.py's only read goes, and its record.
    report = clear_all_but(conv, 1, reads=reads, root=tmp_path)
    assert report.forgotten == (tmp_path / "b.py",)
    assert set(reads) == {tmp_path / "a.py"}


def test_the_session_settings_choose_the_policy(tmp_path: Path) -> None:
    assert policy_for(prompt_caching=True, budget_tokens=1000) == TrimPolicy(
        budget_tokens=1000, target_tokens=500, superseded_now=False
    )
    off = Session(tmp_path, AgentSettings(prompt_caching=False, context_trimming=False))
    on = Session(tmp_path, AgentSettings(prompt_caching=False))
    for session in (off, on):
        conv = Conversation(session.history)
        _reread(conv)
        for i in range(4):  # the newest four results are protected
            conv.call("glob", source(f"g{i}", 100), pattern=f"**/*.{i}")
        conv.answer("found them", "thanks")
    assert trim_session(off, "en").cleared == ()
    assert len(trim_session(on, "en").cleared) == 1


@pytest.mark.parametrize("caching", [True, False])
def test_planning_a_long_history_is_fast(caching: bool) -> None:
    """It runs before every request, in the event loop. Measured in this thread's CPU time:
    the cost of planning, not how long a busy machine made it wait for a core."""
    conv, _ = _big_session(300, lines=200)
    policy = TrimPolicy(budget_tokens=10**9, target_tokens=1, superseded_now=not caching)
    started = time.thread_time()
    for _ in range(5):
        plan(conv.history, policy)
    assert (time.thread_time() - started) / 5 < 0.05
