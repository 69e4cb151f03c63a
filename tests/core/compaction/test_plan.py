"""Where compaction cuts a history (pure): never between a tool_use and its tool_result, the
latest turns kept within their share, and the read records of summarised files dropped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kesi_lsp.core.compaction.plan import choose_split, compacted, reads_to_forget
from kesi_lsp.core.history import check_history

BIG = "x = 1\n" * 700  # ~1,050 estimated tokens


def _round(i: int, name: str, result: str = BIG) -> list[Any]:
    use = {"type": "tool_use", "id": f"t{i}", "name": "read_file", "input": {"file_path": name}}
    answer = {"type": "tool_result", "tool_use_id": f"t{i}", "content": result, "is_error": False}
    return [
        {"role": "assistant", "content": [{"type": "text", "text": f"Reading {name}."}, use]},
        {"role": "user", "content": [answer]},
    ]


def _history() -> list[Any]:
    history: list[Any] = [{"role": "user", "content": "Read a, b, c and d."}]
    for i, name in enumerate(["a.py", "b.py", "c.py", "d.py"]):
        history += _round(i, name)
    return history


def test_the_cut_keeps_whole_rounds_and_the_history_stays_valid() -> None:
    history = _history()
    split = choose_split(history, keep_tokens=2_200)  # two rounds are 2,126
    assert split is not None and split.at == 5  # the last two rounds are kept
    after = compacted(history, split, "## Task\nRead files.", "en")
    assert check_history(after) == []
    assert after[1:] == history[5:]
    assert "Read files." in after[0]["content"][0]["text"]


def test_the_newest_round_is_kept_even_when_it_is_bigger_than_the_share() -> None:
    split = choose_split(_history(), keep_tokens=10)
    assert split is not None and split.at == 7
    assert split.kept_tokens > 10


def test_too_little_to_summarise_is_no_cut() -> None:
    short = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert choose_split(short, keep_tokens=0) is None
    assert choose_split([{"role": "user", "content": "hi"}], keep_tokens=0) is None


def test_a_history_ending_with_the_answer_may_be_cut_at_its_end() -> None:
    history = [*_history(), {"role": "assistant", "content": "All read."}]
    split = choose_split(history, keep_tokens=0)
    assert split is not None and split.at == len(history)
    after = compacted(history, split, "summary", "en")
    assert len(after) == 1 and after[0]["role"] == "user"


def test_reads_whose_latest_touch_was_summarised_are_forgotten(tmp_path: Path) -> None:
    for name in ("a.py", "b.py", "c.py", "d.py", "e.py"):
        (tmp_path / name).write_text("x\n")
    history = _history()
    reads = {(tmp_path / n).resolve(): "sha" for n in ("a.py", "b.py", "c.py", "d.py", "e.py")}
    forgotten = reads_to_forget(history, 5, reads, tmp_path.resolve())
    names = sorted(p.name for p in forgotten)
    assert names == ["a.py", "b.py", "e.py"]  # e.py: no read in view at all
