"""The benchmark suite's own parts: statistics, targets, the generated repository, scenarios."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from lsprotocol import types

from bench import day18, longsession, repo
from bench.report import Figure, Report
from bench.stats import percentile
from kesi_lsp.demo.project import build
from kesi_lsp.scripted_api import Script, ToolUseBlock, validate_request


def test_percentiles_interpolate_between_ranks() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.5
    assert percentile(values, 99) == 99.01
    assert percentile([3.0], 99) == 3.0
    assert math.isnan(percentile([], 50))


def test_a_target_is_an_upper_bound_with_an_optional_noise_margin() -> None:
    figure = Figure("b", "f", 1.4, "x", 1.0)
    assert figure.met() is False
    assert figure.met(margin=1.5) is True
    assert Figure("b", "f", 2.0, "x", None).met() is None
    assert Figure("b", "f", float("nan"), "ms", 5.0).met() is False
    report = Report("smoke", {}, [figure, Figure("b", "g", 0.5, "x", 1.0)])
    assert report.failures() == [figure]
    assert report.failures(margin=1.5) == []
    assert "<= 1.00x" in report.table() and "NO" in report.table()


@pytest.mark.slow  # writes a large tree
def test_the_generated_repository_is_plain_text_of_the_promised_shape(tmp_path: Path) -> None:
    shape = replace(repo.SMOKE, files=600, pkgs=2, mods=3, wide=50, logs=2, log_bytes=200_000)
    written = repo.generate(tmp_path / "r", shape)
    files = [p for p in (tmp_path / "r").rglob("*") if p.is_file()]
    assert len(files) == written["files"] == 600
    assert sum(p.stat().st_size for p in files) == written["bytes"]
    assert not any(b"\0" in p.read_bytes() for p in files), "rg must not see binary files"
    assert sum(repo.RARE in p.read_text() for p in files) == 3
    sources = [p for p in files if p.parent.name.startswith("mod_")]
    assert all(p.read_text().count(repo.COMMON) == 2 for p in sources)
    big = (tmp_path / "r" / "pkg_00" / "big_module.py").stat().st_size
    assert 250_000 <= big < 262_144


def test_day18_replays_the_seed_bill_shape() -> None:
    steps = day18.replies()
    assert len(day18.QUESTIONS) == 8
    assert len(steps) == sum(day18.ROUND_REQUESTS) == 14
    first = [b for b in steps[0].content + steps[1].content if isinstance(b, ToolUseBlock)]
    assert [(b.name, dict(b.input)) for b in first] == [
        ("list_files", {}),
        ("read_file", {"file_path": "README.md"}),
        ("read_file", {"file_path": "pricing.py"}),
        ("read_file", {"file_path": "rules.py"}),
    ]
    Script(steps=tuple(steps))  # a valid script


def test_day18_reads_only_files_of_the_day13_project(tmp_path: Path) -> None:
    root = build(tmp_path / "p")
    for step in day18.replies():
        for block in step.content:
            if isinstance(block, ToolUseBlock) and block.name == "read_file":
                assert (root / block.input["file_path"]).is_file()


def test_the_long_session_reads_real_files_and_passes_the_budget(tmp_path: Path) -> None:
    root = longsession.build(tmp_path / "p")
    questions, steps = longsession.scenario()
    reads = [
        b.input["file_path"]
        for s in steps
        for b in s.content
        if isinstance(b, ToolUseBlock) and b.name == "read_file"
    ]
    assert all((root / path).is_file() for path in reads)
    read_bytes = sum((root / path).stat().st_size for path in reads)
    # Past the 50,000-token budget once (trimmed to 25,000), then past it again.
    assert read_bytes / 4 > 50_000 + 25_000
    assert len(questions) < len(steps)


def test_scripted_requests_of_the_scenarios_are_valid_tool_definitions() -> None:
    body = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
    assert validate_request(body) == []


def test_a_report_renders_again_from_its_json() -> None:
    figure = Figure("tokens", "day 18", 0.28, "x", 0.45, "23,905 vs 85,292", ci=True)
    report = Report("full", {"cpu": "x"}, [figure], {"command": "python -m bench"}, {"total": 1})
    again = Report.from_json(report.to_json())
    assert again.figures == [figure]
    assert again.markdown() == report.markdown()


def test_the_change_sets_typing_leaves_the_text_and_the_hunks_as_they_were() -> None:
    """Benchmark 8's keystrokes come in pairs that undo each other, between the hunks, so the
    20 hunks stay over the agent's lines however many rounds are typed."""
    from bench import changes
    from kesi_lsp.testing.text import apply_text_edits

    before, after = changes.texts()
    assert before.count("\n") == changes.LINES
    assert sum(a != b for a, b in zip(before.splitlines(), after.splitlines(), strict=True)) == 20
    text = after
    taken = set(changes.hunk_lines())
    for start, end, new in changes.typing(200):
        assert start[0] not in taken
        edit = types.TextEdit(
            range=types.Range(
                start=types.Position(line=start[0], character=start[1]),
                end=types.Position(line=end[0], character=end[1]),
            ),
            new_text=new,
        )
        text = apply_text_edits(text, [edit], "utf-16")
    assert text == after
    script = changes.build_script()
    tools = [b for s in script.steps for b in s.content if isinstance(b, ToolUseBlock)]
    assert len(tools) == 2 * changes.HUNKS  # one run in each of the two servers


async def test_the_change_sets_hook_is_timed_on_the_servers_real_parts(tmp_path: Path) -> None:
    """Benchmark 8's first half runs (on the server's own Sessions and ChangeFeed), one timing
    per keystroke, with change sets on and off."""
    from bench import changes
    from bench.changes_hook import time_hook

    before, after = changes.texts()
    keys = changes.typing(20)
    for change_sets in (True, False):
        root = tmp_path / str(change_sets)
        root.mkdir()
        (root / "big.py").write_text(after, encoding="utf-8")
        times = await time_hook(root.resolve(), before, after, keys, change_sets=change_sets)
        assert len(times.hook) == len(times.pygls) == len(keys) == 40
        assert all(t >= 0 for t in times.hook)
