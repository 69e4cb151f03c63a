"""Ranged reads (Days 06 and 10: offset and limit are the "page buttons"): numbered parts, a
footer saying which part of how many lines, big files changed through edit_file, and write_file
refused over lines never seen."""

from __future__ import annotations

import hashlib

import pytest

from kesi_lsp.core.tools import ToolResult
from kesi_lsp.core.tools.files import MAX_READ_BYTES
from kesi_lsp.core.tools.ranged import MAX_LINE_CHARS
from tests.core.workspace import Workspace


def lines(count: int, *, ending: str = "\n") -> str:
    return "".join(f"row {n}{ending}" for n in range(1, count + 1))


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def test_a_range_comes_back_numbered_with_a_footer(ws: Workspace) -> None:
    path = ws.write("data.txt", lines(10))
    result = await ws.call("read_file", file_path="data.txt", offset=3, limit=2)
    assert result == ToolResult(
        "3 | row 3\n4 | row 4\n\n[lines 3-4 of 10 in data.txt; read on with offset=5]",
        summary="read lines 3-4 of 10",
    )
    assert ws.session.reads[path] == sha(lines(10))  # the whole text's digest


async def test_the_footer_says_the_end_and_the_whole_file(ws: Workspace) -> None:
    ws.write("data.txt", lines(10))
    tail = await ws.call("read_file", file_path="data.txt", offset=9)
    assert tail.text.endswith("[lines 9-10 of 10 in data.txt: the end of the file]")
    whole = await ws.call("read_file", file_path="data.txt", offset=1, limit=500)
    assert whole.text.startswith(" 1 | row 1\n")
    assert whole.text.endswith("[lines 1-10 of 10 in data.txt: the whole file]")


async def test_the_footer_in_the_seeds_locale(zh: Workspace) -> None:
    zh.write("data.txt", lines(10))
    result = await zh.call("read_file", file_path="data.txt", offset=2, limit=3)
    assert result.text.endswith("[data.txt 共 10 行，這是第 2-4 行；要往下讀請用 offset=5]")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"offset": 0}, "Error: offset is the line number to start reading at (1 for the first"),
        ({"offset": -3}, "Error: offset is the line number"),
        ({"limit": -1}, "Error: limit is how many lines to read, at least 1, not -1."),
        ({"limit": 0}, "Error: limit is how many lines to read, at least 1, not 0."),
        ({"offset": 11}, "Error: offset 11 is past the end of data.txt, which has 10 line(s)."),
        ({"offset": "5"}, "Error: wrong arguments for read_file: offset must be a whole number"),
        ({"limit": True}, "Error: wrong arguments for read_file: limit must be a whole number"),
    ],
)
async def test_bad_ranges_are_clear_errors_that_lose_nothing(
    ws: Workspace, arguments: dict[str, object], message: str
) -> None:
    path = ws.write("data.txt", lines(10))
    await ws.call("read_file", file_path="data.txt")
    before = ws.snapshot()
    result = await ws.call("read_file", {"file_path": "data.txt", **arguments})
    assert result.is_error
    assert result.text.startswith(message)
    assert ws.session.reads == {path: sha(lines(10))}  # the earlier whole read still counts
    assert ws.session.read_parts == {}
    assert ws.snapshot() == before


async def test_line_endings_are_kept_so_copied_text_still_matches(ws: Workspace) -> None:
    ws.write("dos.txt", lines(4, ending="\r\n"))
    result = await ws.call("read_file", file_path="dos.txt", offset=2, limit=2)
    assert result.text.startswith("2 | row 2\r\n3 | row 3\r\n\n[lines 2-3 of 4")


async def test_an_empty_file(ws: Workspace) -> None:
    ws.write("empty.txt", "")
    assert await ws.call("read_file", file_path="empty.txt", offset=1) == ToolResult(
        "(the file is empty)"
    )
    late = await ws.call("read_file", file_path="empty.txt", offset=2)
    assert late == ToolResult(
        "Error: empty.txt is empty; there are no lines to read from offset 2.", True
    )


async def test_a_very_long_line_is_cut_with_a_note(ws: Workspace) -> None:
    ws.write("min.js", "a" * (MAX_LINE_CHARS + 500) + "\nok\n")
    result = await ws.call("read_file", file_path="min.js", offset=1, limit=2)
    first = result.text.splitlines()[0]
    assert first.endswith(" … [this line goes on for 500 more characters]")
    assert "2 | ok" in result.text


async def test_a_big_file_is_read_in_parts_and_changed_with_edit_file(ws: Workspace) -> None:
    """The 256 KB refusal is gone: read the part, edit it; edit_file's unique match guards it."""
    body = "".join(f"value_{n} = {n}  # {'x' * 80}\n" for n in range(1, 4001))
    assert len(body.encode()) > MAX_READ_BYTES
    path = ws.write("big.py", body)
    first = await ws.call("read_file", file_path="big.py")
    assert "read on with offset=" in first.text
    part = await ws.call("read_file", file_path="big.py", offset=3500, limit=3)
    assert "3500 | value_3500 = 3500" in part.text
    edit = await ws.call(
        "edit_file",
        file_path="big.py",
        old_string="value_3500 = 3500  #",
        new_string="value_3500 = 0  #",
    )
    assert edit == ToolResult("Replaced (starting at line 3500).")
    assert path.read_text().count("value_3500 = 0  #") == 1
    assert path.read_text().replace("value_3500 = 0  #", "value_3500 = 3500  #") == body


async def test_write_file_over_a_file_read_only_in_part_is_refused(ws: Workspace) -> None:
    path = ws.write("data.txt", lines(10))
    await ws.call("read_file", file_path="data.txt", offset=1, limit=4)
    await ws.call("read_file", file_path="data.txt", offset=7, limit=2)
    result = await ws.call("write_file", file_path="data.txt", content="gone\n")
    assert result == ToolResult(
        "Error: you have read only lines 1-4, 7-8 of the 10 lines of data.txt, so overwriting "
        "it would throw away lines you have not seen. Read the whole file with read_file "
        "first, or change the part you mean with edit_file.",
        True,
    )
    assert path.read_text() == lines(10)


async def test_parts_that_cover_every_line_count_as_a_whole_read(ws: Workspace) -> None:
    path = ws.write("data.txt", lines(10))
    await ws.call("read_file", file_path="data.txt", offset=6)
    await ws.call("read_file", file_path="data.txt", offset=1, limit=5)
    assert ws.session.read_parts == {}
    result = await ws.call("write_file", file_path="data.txt", content="new\n")
    assert result == ToolResult("Overwrote data.txt (4 bytes).")
    assert path.read_text() == "new\n"


async def test_parts_of_an_older_version_do_not_add_up(ws: Workspace) -> None:
    path = ws.write("data.txt", lines(10))
    await ws.call("read_file", file_path="data.txt", offset=1, limit=5)
    path.write_text(lines(10).replace("row 3", "row three"))  # someone else changed it
    await ws.call("read_file", file_path="data.txt", offset=6)
    assert ws.session.read_parts[path].spans == ((6, 10),)
    refused = await ws.call("write_file", file_path="data.txt", content="x\n")
    assert refused.is_error and "lines 6-10 of the 10 lines" in refused.text


async def test_a_whole_read_after_parts_clears_them(ws: Workspace) -> None:
    path = ws.write("data.txt", lines(10))
    await ws.call("read_file", file_path="data.txt", offset=2, limit=2)
    await ws.call("read_file", file_path="data.txt")
    assert path not in ws.session.read_parts
    assert (await ws.call("write_file", file_path="data.txt", content="y\n")).is_error is False
