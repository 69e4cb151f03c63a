"""Every line a user reads is the server's, in the session's locale, inside the payload
(issue 25): the same scripted run (a plan, a search sub-agent, a read, a reviewed edit, a
command prompt, a verdict) told to a log-only editor and to our own client, in en and zh-TW.

The log-only editor (Emacs' eglot here) reads `window/logMessage` lines; our client reads
`kesi/stream`, `kesi/plan`, `kesi/reviewEdit` and `kesi/runFinished`, and every line of its story
is a field of those payloads: the two tell the same story in the same words, so no client needs
to render a tool call, a bill, a plan or the review's buttons itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.catalog import text
from kesi_lsp.scripted_api import reply, script, tool_use
from kesi_lsp.testing import BUTTONS
from tests.lsp.clients import Editor, kesi_client
from tests.lsp.conftest import FIXED
from tests.lsp.helpers import PYTEST, TEST_CALC, api_env
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

LOCALES = ["en", "zh-TW"]
STEPS = ("Find add", "Fix the sign", "Run the tests")
TEXTS = {"Plan first.", "Searching it.", "Searching.", "add is at calc.py:1.", "Reading."}
TEXTS |= {"Fixing.", "Testing.", "Done.", "All three steps are done."}


def _todo(done: int) -> Any:
    statuses = ["completed"] * done + ["in_progress"] + ["pending"] * 3
    items = [{"content": c, "status": s} for c, s in zip(STEPS, statuses, strict=False)]
    return tool_use("todo", {"items": items})


EDIT = {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"}


def _run() -> Any:
    """The scripted model's side of the run (a fresh script for each editor)."""
    return script(
        reply("Plan first.", _todo(0)),
        reply("Searching it.", tool_use("search_agent", {"task": "Where is add?"}, id="toolu_s")),
        reply("Searching.", tool_use("grep", {"pattern": "def add", "path": "calc.py"})),
        reply("add is at calc.py:1."),
        reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
        reply("Fixing.", _todo(1), tool_use("edit_file", EDIT)),
        reply("Testing.", _todo(2), tool_use("run_command", {"command": PYTEST})),
        reply("Done.", _todo(3)),
        reply("All three steps are done."),
    )


WORDS = {
    "en": {
        "grep": "      [tool] grep: def add in calc.py",
        "review": "[Permission needed] edit_file changes file: calc.py",
        "question": "Allow it?",
        "proposal": "KeSi's proposal: calc.py",
        "title": [
            "Plan: 0 of 3 done",
            "Plan: 1 of 3 done",
            "Plan: 2 of 3 done",
            "Plan: 3 of 3 done",
        ],
        "current": "step 2 of 3: Fix the sign",
        "end": "done · verified · (this run: ",
        "plan": "  [plan] ",
        "search_turns": [
            "search agent: turn 1 of at most 10",
            "search agent: turn 2 of at most 10",
        ],
    },
    "zh-TW": {
        "grep": "      [執行工具] grep：def add（在 calc.py）",
        "review": "[需要授權] edit_file 修改檔案：calc.py",
        "question": "放行嗎？",
        "proposal": "KeSi 的提議：calc.py",
        "title": ["計畫：完成 0/3", "計畫：完成 1/3", "計畫：完成 2/3", "計畫：完成 3/3"],
        "current": "第 2 步（共 3 步）：Fix the sign",
        "end": "完成 · 已驗證 · （本輪 ",
        "plan": "  [計畫] ",
        "search_turns": ["搜尋分身：第 1 輪（最多 10 輪）", "搜尋分身：第 2 輪（最多 10 輪）"],
    },
}


async def _tell(preset: str, locale: str, project: Path, api: Any) -> tuple[Editor, Any]:
    (project / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    root = str(project)  # pytest resolves tmp_path already
    options = {"locale": locale, "sandbox": "off"}
    async with kesi_client(preset, [project], env=api_env(api), init_options=options) as client:
        allow_once = BUTTONS[locale][1]
        client.answer_prompt = lambda params: allow_once
        client.answer_review = lambda params: "accept"
        client.open(project / "calc.py")
        done = await client.run("kesi.ask", {"prompt": "fix calc"})
        changes = await client.command("kesi.changes", {})
    assert done["status"] == "done", done
    assert (project / "calc.py").read_text(encoding="utf-8") == FIXED
    return client, (done, changes, root)


def _same(line: str, root: str) -> str:
    """`line` without what differs between two runs of the same script: the folder, how long
    pytest took."""
    return re.sub(r" in \d+\.\d+s ", " in Ns ", line.replace(root, "ROOT"))


def _numbers(line: str) -> str:
    """`line` with every figure as N: two runs' bills differ by a few tokens (our client's
    tool result names the editor's problems)."""
    return re.sub(r"\d[\d,.]*", "N", line)


def _story_lines(client: Editor, run_id: str, root: str) -> list[str]:
    """Every line our client's story shows but model text: the payloads' own (the folder's
    path as ROOT)."""
    events = [e for e in client.stream(run_id) if e["kind"] != "text"]
    for event in events:
        assert event["line"] == (event["lines"][0] if event["lines"] else ""), event
    return [_same(line, root) for event in events for line in event["lines"]]


def _log_story(client: Editor, locale: str, root: str) -> list[str]:
    """The log's lines but model text and the one-line plans (our client has `kesi/plan`)."""
    speaker = "KeSi > "
    return [
        _same(line, root)
        for line in client.log_lines()
        if not line.startswith((speaker, WORDS[locale]["plan"])) and line.strip() not in TEXTS
    ]


@pytest.mark.slow
@pytest.mark.parametrize("locale", LOCALES)
async def test_a_log_client_and_our_client_read_the_same_lines(
    locale: str, tmp_path: Path, scripted_api: StartServer
) -> None:
    words = WORDS[locale]
    told = {}
    for preset, home in (("emacs", "a"), ("neovim+kesi", "b")):
        project = tmp_path / home / "project"  # as long a path: the same prompt, the same bill
        project.mkdir(parents=True)
        (project / "calc.py").write_text("def add(a, b):\n    return a - b\n", encoding="utf-8")
        told[preset] = await _tell(preset, locale, project, scripted_api(_run()))
    log_client, (_, _, log_root) = told["emacs"]
    ours, (done, changes, root) = told["neovim+kesi"]

    story = _story_lines(ours, done["runId"], root)
    assert words["grep"] in story  # the sub-agent's call, indented under its parent
    assert story == _log_story(log_client, locale, log_root)[: len(story)]
    # The end of the run: the log's closing lines and the footer, the same words.
    closing = [_numbers(line) for line in log_client.log_lines()[-len(done["lines"]) :]]
    assert [_numbers(line) for line in done["lines"]] == closing
    assert len(closing) == 2 and closing[-1] == _numbers(
        text("lsp.log.bill", locale, bill=done["bill"])
    )
    assert done["line"].startswith(words["end"]), done["line"]
    assert done["line"].endswith(done["bill"])

    # The search's own turns in the server's words, naming the search agent, for a status text
    # (Emacs' mode line, Neovim's statusline); the run's own turns have no such label.
    turns = ours.stream(done["runId"], "turn")
    assert [t["nestedLabel"] for t in turns if t.get("depth")] == words["search_turns"]
    assert not any("nestedLabel" in t for t in turns if not t.get("depth"))
    (start,) = [e for e in ours.stream(done["runId"], "toolStart") if e["tool"] == "grep"]
    assert start["detail"] == words["grep"].split("：" if locale == "zh-TW" else ": ", 1)[1]

    plans = [p for m, p in ours.timeline if m == "kesi/plan"]
    assert [p["title"] for p in plans] == words["title"]
    assert plans[1]["lines"] == ["✓ Find add", "▶ Fix the sign", "○ Run the tests"]
    assert plans[1]["current"] == words["current"] and plans[-1]["current"] is None

    (review,) = ours.reviews
    assert review["title"] == words["review"] and review["question"] == words["question"]
    assert review["proposal"] == words["proposal"]  # a diff tab's title, in the server's words
    assert review["actions"] == [
        {"title": title, "decision": decision}
        for title, decision in zip(
            BUTTONS[locale], ("reject", "accept", "acceptSession"), strict=True
        )
    ]
    assert changes["lines"][0] == text("changes.list.head", locale)
    assert len(changes["lines"]) > 1 and "calc.py" in changes["lines"][-1]
