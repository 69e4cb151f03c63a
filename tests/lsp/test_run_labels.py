"""A run's row and its verdict after an undo, over the real LSP wire (issue 32).

The changes listing names a run by what the user asked ("Fix this · calc.py:2 · 20:42 ·
verified"), never by KeSi's task text or a hex id, and a hunk by its lines and code. A run
verified by a passing check says "verified before your undo" once the user undoes what the
check ran on: in the listing, as `kesi/verdict` to our clients, as a log line to the others.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.change_sets import until
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import PYTEST, TEST_CALC, api_env, fix_this_args
from tests.lsp.reviews import answer
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)
FIX_AND_TEST = script(
    reply("Fixing.", EDIT),
    reply("Testing.", tool_use("run_command", {"command": PYTEST})),
    reply("Fixed."),
)
WORDS = {
    "en": {
        "fix": "Fix this",
        "verified": "verified",
        "before": "verified before your undo",
        "hunk": "line 2 · return a + b",
        "detail": f"{PYTEST} passed before you undid calc.py line 2; "
        "the files no longer hold what it checked",
    },
    "zh-TW": {
        "fix": "修這裡",
        "verified": "已驗證",
        "before": "復原前已驗證",
        "hunk": "第 2 行 · return a + b",
        "detail": f"{PYTEST} 通過的是你復原 calc.py 第 2 行 之前的版本，"
        "現在的檔案已經不是它檢查過的內容",
    },
}
TIME = r"\d\d:\d\d"


def _run_row(listing: dict[str, Any]) -> dict[str, Any]:
    (run,) = listing["runs"]
    return run


@pytest.mark.slow
@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_rows_name_the_ask_and_an_undo_takes_back_the_verdict(
    locale: str, project: Path, scripted_api: StartServer
) -> None:
    (project / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    words = WORDS[locale]
    api = scripted_api(FIX_AND_TEST)
    options = {"locale": locale, "sandbox": "off"}
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=options) as c:
        answer(c, accept=True)
        c.answer_prompt = lambda params: params.actions[1].title  # Deny first, then Allow once
        c.open(project / "calc.py")
        done = await c.run("kesi.fixThis", fix_this_args(project))
        assert done["verified"]["status"] == "verified", done["verified"]
        run = _run_row(await c.command("kesi.changes", {}))
        row = f"{words['fix']} · calc.py:2 · {TIME} · {words['verified']}"
        assert re.fullmatch(row, run["label"]), run["label"]
        assert run["runId"] not in run["label"]  # no hex id
        (hunk,) = run["files"][0]["hunks"]
        assert hunk["label"] == words["hunk"]
        assert run["verified"]["status"] == "verified"

        result = await c.command("kesi.undoRun", {})
        assert not result["failed"], result
        await until(lambda: len(c.verdicts()) == 1)
        (told,) = c.verdicts()
        assert told["runId"] == done["runId"]
        assert told["verified"]["status"] == "unverified"
        assert told["verified"]["text"] == words["before"]
        assert told["verified"]["detail"] == words["detail"]
        sep = "：" if locale == "zh-TW" else ": "
        assert re.fullmatch(
            f"{words['fix']} · calc.py:2 · {TIME}{sep}{words['before']}.*", told["line"]
        ), told["line"]
        listing = await c.command("kesi.changes", {})
        run = _run_row(listing)
        assert run["label"].endswith(f" · {words['before']}")
        assert run["verified"]["text"] == words["before"]
        assert listing["lines"][1] == run["label"]  # the text listing says the same
        assert not c.violations


@pytest.mark.slow
async def test_a_log_only_editor_reads_the_verdict_change_as_a_line(
    project: Path, scripted_api: StartServer
) -> None:
    """Emacs (eglot, no KeSi client) gets no `kesi/verdict`: the same words as a log line."""
    (project / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    api = scripted_api(FIX_AND_TEST)
    options = {"sandbox": "off"}
    async with kesi_client("emacs", [project], env=api_env(api), init_options=options) as c:
        answer(c, accept=True, session=True)
        c.open(project / "calc.py")
        done = await c.run("kesi.ask", {"prompt": "fix add\nplease", "uri": c.uri(project)})
        assert done["verified"]["status"] == "verified", done["verified"]
        result = await c.command("kesi.undoRun", {})
        assert not result["failed"], result
        said = f"{PYTEST} passed before you undid calc.py line 2"
        await until(lambda: any(said in line for line in c.log_lines()))
        (line,) = [line for line in c.log_lines() if said in line]
        assert re.fullmatch(f"fix add · {TIME}: verified before your undo \\(.*\\)", line), line
        assert c.verdicts() == [] and not c.violations
