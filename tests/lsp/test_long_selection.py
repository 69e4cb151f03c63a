""" "Fix this" on a huge selection sends a clipped excerpt, and says so (over the wire).

A user who selects all of a 5,000-line generated file and asks for a fix does not think of a
limit; the prompt must still stay small: at most 400 lines or 64 KB, cut at a line boundary,
with a sentence telling the model which lines it got and how to read the rest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kesi_lsp.core import MAX_EXCERPT_BYTES, clip_note, clipped_last
from kesi_lsp.lsp.tasks import fix_task
from kesi_lsp.scripted_api import reply, script
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.plugins.scripted_api import StartServer


def _whole_file(path: Path, lines: int) -> dict[str, Any]:
    return {
        "uri": path.resolve().as_uri(),
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}},
    }


async def _task_of(
    project: Path, api: Any, command: str, argument: dict[str, Any], locale: str = "en"
) -> str:
    configuration = {"": {"kesi": {"locale": locale}}}
    async with kesi_client(
        "vscode", [project], env=api_env(api), configuration=configuration
    ) as client:
        done = await client.run(command, argument)
        assert done["status"] == "done", done
    content = api.requests[0].body["messages"][0]["content"]
    return content if isinstance(content, str) else content[-1]["text"]


async def test_a_5000_line_selection_is_clipped_and_says_so(
    project: Path, scripted_api: StartServer
) -> None:
    big = project / "generated.py"
    source = "".join(f"VALUE_{n} = {n}\n" for n in range(1, 5001))
    big.write_text(source, encoding="utf-8")
    api = scripted_api(script(reply("Looked at it.")))
    task = await _task_of(project, api, "kesi.fixThis", _whole_file(big, 5000))
    assert task.startswith("Fix the code in generated.py, lines 1-5000, as shown in my editor:")
    assert "400 | VALUE_400 = 400" in task and "VALUE_401 " not in task
    assert (
        "The selection is long, so only lines 1-400 are shown above (at most 400 lines or 64 "
        "KB). Lines 401-5000 are not included: read generated.py with read_file (or search it "
        "with grep) when you need them."
    ) in task
    assert big.read_text(encoding="utf-8") == source  # nothing touched


async def test_long_lines_are_clipped_by_size_at_a_line_boundary(
    project: Path, scripted_api: StartServer
) -> None:
    wide = project / "data.js"
    line = "x" * 1000
    wide.write_text("".join(f"{line}\n" for _ in range(300)), encoding="utf-8")
    api = scripted_api(script(reply("Noted.")))
    argument = {**_whole_file(wide, 300), "prompt": "what is this?"}
    task = await _task_of(project, api, "kesi.ask", argument, locale="zh-TW")
    shown = [row for row in task.split("\n") if " | " in row]
    assert 0 < len(shown) < 300 and all(row.endswith(line) for row in shown)
    assert sum(len(row.encode("utf-8")) + 1 for row in shown) <= MAX_EXCERPT_BYTES
    last = len(shown)
    assert f"上面只附了第 1-{last} 行（最多 400 行或 64 KB）。第 {last + 1}-300 行沒有附上" in task
    assert "需要時請用 read_file 讀 data.js（或用 grep 搜尋）。" in task


async def test_a_normal_selection_is_sent_whole_without_a_note(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Fine.")))
    task = await _task_of(project, api, "kesi.fixThis", _whole_file(project / "calc.py", 2))
    assert task == (
        "Fix the code in calc.py, lines 1-2, as shown in my editor:\n\n"
        "1 | def add(a, b):\n"
        "2 |     return a - b\n\n"
        "Find the cause, fix it with the smallest change that works, and check the fix."
    )


def test_a_first_line_over_the_cap_sends_no_lines_and_says_why() -> None:
    source = "x" * (MAX_EXCERPT_BYTES + 1) + "\nshort\n"
    assert clipped_last(source, 0, 1) == -1
    assert fix_task("min.js", "", (0, 1), [], None, "en", shown=-1).startswith(
        "Fix the code in min.js, lines 1-2, as shown in my editor:\n\n\n\n"
        "The selection (lines 1-2) is too large to include: its first line alone is over 64 KB. "
        "Read min.js with read_file (or search it with grep) to see it."
    )
    assert clipped_last(source, 1, 1) == 1


def test_an_empty_file_is_not_clipped() -> None:
    """Fix this on an empty file: nothing to clip, and no false "over 64 KB" sentence."""
    assert clipped_last("", 0, 0) == 0
    assert clip_note("empty.py", (0, 0), clipped_last("", 0, 0), "en") is None
