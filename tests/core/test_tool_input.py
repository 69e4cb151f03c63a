"""How a tool call's streaming input is reported (issue 31 item 6): a short call not at all, a
long one a few times as it grows (not once per chunk), again when its path becomes whole; and
the line it shows, in both locales."""

from __future__ import annotations

import json

import pytest

from kesi_lsp.catalog import Locale
from kesi_lsp.core import Nested, ToolInputProgress, progress_line, tool_input_line
from kesi_lsp.core.tool_input import ToolInputMeter


def _feed(raw: str, chunk: int = 7) -> list[ToolInputProgress]:
    meter = ToolInputMeter()
    meter.start(0, "toolu_1", "write_file")
    reports = []
    for at in range(0, len(raw), chunk):
        parsed = {"file_path": "shop/rates.py"} if at > 30 else {}
        if (report := meter.delta(0, raw[at : at + chunk], parsed)) is not None:
            reports.append(report)
    return reports


def test_a_short_input_is_not_reported() -> None:
    assert _feed(json.dumps({"file_path": "calc.py"})) == []


def test_a_long_input_is_reported_a_few_times_as_it_grows() -> None:
    raw = json.dumps({"file_path": "shop/rates.py", "content": "x = 1\n" * 2000})  # 12 KB
    reports = _feed(raw)
    assert 5 <= len(reports) <= 16 < len(raw) // 7
    sizes = [r.received for r in reports]
    assert sizes == sorted(sizes) and sizes[0] >= 256
    assert reports[-1].input == {"file_path": "shop/rates.py"}
    huge = _feed(json.dumps({"content": "y" * 1_000_000}), chunk=64)
    assert len(huge) <= 60


def test_the_path_becoming_whole_is_reported_at_once() -> None:
    meter = ToolInputMeter()
    meter.start(0, "toolu_1", "write_file")
    assert meter.delta(0, "x" * 300, {}) is not None
    assert meter.delta(0, "x" * 10, {}) is None
    assert meter.delta(0, "x" * 10, {"file_path": "a.py"}) is not None


@pytest.mark.parametrize(
    ("locale", "line"),
    [
        ("en", "  [tool] write_file: shop/rates.py · 12 KB so far"),
        ("zh-TW", "  [執行工具] write_file：shop/rates.py · 已收到 12 KB"),
    ],
)
def test_the_line_reads_as_the_call_will_and_says_how_much_came(locale: Locale, line: str) -> None:
    event = ToolInputProgress(
        "toolu_1", "write_file", 12 * 1024 + 5, {"file_path": "shop/rates.py"}
    )
    assert tool_input_line(event, locale) == line
    # Half a file's content is never shown: only the tool and the size until the path is whole.
    bare = ToolInputProgress("toolu_1", "write_file", 640, {"content": "import os\n"})
    assert tool_input_line(bare, locale).endswith(
        ("write_file · 640 B so far", "write_file · 已收到 640 B")
    )
    nested = progress_line(Nested("toolu_s", "search", event), locale)
    assert nested == "    " + line
