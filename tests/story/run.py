"""One scripted run, told by every front end in the same words (issue 25): the script, the
project, and the story lines a client shows, read the same way for every client.

The run: a plan (`todo`), a search sub-agent (with its own grep), a read, a reviewed edit, a
command that asks first, and the verdict its passing tests give; then the plan completed and
the model's last word. The same script drives a log-only LSP client (`window/logMessage`,
the reference), VS Code, Neovim, Emacs and ACP, in English and under `locale: zh-TW`.

What is compared are the server's own lines: every line of the story but the model's words
(each model text carries the mark `¶` so it can be left out: clients break and indent prose
as they like) and the plan (each item carries `§`: a log client reads the plan as one line
per update, an editor as a block it updates in place; the plan is compared on its own). The
project's path and every figure are masked: the bill counts the request's tokens, and each
editor's request names its own folder and open files.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kesi_lsp.catalog import Locale, text
from kesi_lsp.scripted_api import Script, reply, script, tool_use

CALC_BUGGY = 'def add(a, b):\n    """Return the sum of a and b."""\n    return a - b\n'
CALC_FIXED = 'def add(a, b):\n    """Return the sum of a and b."""\n    return a + b\n'
TEST_CALC = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
PYTEST = "python -m pytest -q"
PROMPT = "Fix add"
PROSE = "¶"
PLANNED = "§"
LOCALES: tuple[Locale, ...] = ("en", "zh-TW")
STEPS = (f"{PLANNED} Find add", f"{PLANNED} Fix the sign", f"{PLANNED} Run the tests")


def project(root: Path) -> Path:
    """`calc.py` (add() subtracts), its failing test, a pyproject.toml marker, a git repo."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[project]\nname = "calc"\nversion = "0.1.0"\n')
    (root / "calc.py").write_text(CALC_BUGGY, encoding="utf-8")
    (root / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    return root


def _plan(*statuses: str) -> dict[str, Any]:
    return {"items": [{"content": c, "status": s} for c, s in zip(STEPS, statuses, strict=True)]}


def story_script() -> Script:
    """The run, request by request (the search sub-agent's two in the middle)."""
    return script(
        reply(
            f"{PROSE} A plan first.", tool_use("todo", _plan("in_progress", "pending", "pending"))
        ),
        reply(
            f"{PROSE} Where is add?",
            tool_use("search_agent", {"task": "Where is add defined?"}, id="toolu_search"),
        ),
        reply(f"{PROSE} Searching.", tool_use("grep", {"pattern": "def add"})),
        reply(f"{PROSE} add is at calc.py:1."),
        reply(f"{PROSE} Reading it.", tool_use("read_file", {"file_path": "calc.py"})),
        reply(
            f"{PROSE} The sign is wrong.",
            tool_use(
                "edit_file",
                {
                    "file_path": "calc.py",
                    "old_string": "return a - b",
                    "new_string": "return a + b",
                },
            ),
        ),
        reply(f"{PROSE} Testing.", tool_use("run_command", {"command": PYTEST})),
        reply(f"{PROSE} Done.", tool_use("todo", _plan("completed", "completed", "completed"))),
        reply(f"{PROSE} add adds now."),
    )


def answer(actions: list[str], locale: Locale) -> str:
    """The action a user takes at every question of the run: allow this once. The answers
    come Deny first, in the session's words (the seed's under zh-TW)."""
    words = [text(f"permissions.answer.{key}", locale) for key in ("deny", "once", "session")]
    assert actions == words, actions
    return words[1]


def masked(line: str, folder: Path) -> str:
    """`line` with the project's folder and every figure masked (see the module docstring)."""
    for shown in {str(folder.resolve()), str(folder)}:
        line = line.replace(shown, "<project>")
    return re.sub(r"\d+(?:[.,]\d+)*", "#", line)


def story(lines: Iterable[str], folder: Path, locale: Locale) -> list[str]:
    """The server's lines among `lines`: not the model's words, not the plan (its items, and
    the head an editor puts over them: the server's plan title); masked."""
    head = masked(text("lsp.plan.title", locale, done=0, total=0), folder)
    return [
        masked(line, folder).rstrip()
        for line in lines
        if line.strip()
        and PROSE not in line
        and PLANNED not in line
        and not masked(line, folder).startswith(head)
    ]


def bill_free(lines: list[str], bill: str | None, folder: Path) -> list[str]:
    """`lines` without the bill line (an editor's footer carries the bill instead)."""
    if not bill:
        return lines
    shown = masked(bill, folder)
    return [line for line in lines if shown not in line]


class Reference:
    """The log-only client's story of the run (see `log_story`)."""

    def __init__(self, lines: list[str], bill: str | None, finished: dict[str, Any]) -> None:
        self.lines = lines  # the server's lines, masked
        self.bill = bill  # the run's bill (Day 18), as the server sent it
        self.finished = finished  # its `kesi/runFinished`


async def log_story(folder: Path, api: Any, locale: Locale) -> Reference:
    """Run the story through a log-only LSP client (plain eglot's capabilities: no KeSi
    extension, so every line comes as `window/logMessage`), allowing each question once."""
    from tests.lsp.clients import kesi_client
    from tests.lsp.helpers import api_env

    options = {"kesi": {"locale": locale}}
    async with kesi_client("emacs", [folder], env=api_env(api), init_options=options) as client:
        client.answer_prompt = lambda params: answer(
            [action.title for action in params.actions or []], locale
        )
        done = await client.run("kesi.ask", {"prompt": PROMPT, "uri": folder.as_uri()}, seconds=120)
        lines = client.log_lines()
    assert done["status"] == "done", done
    assert (folder / "calc.py").read_text(encoding="utf-8") == CALC_FIXED
    return Reference(story(lines, folder, locale), done.get("bill"), done)


def reference_story(folder: Path, api: Any, locale: Locale) -> Reference:
    """`log_story` for a test without an event loop of its own to lend (a real editor's test;
    Playwright's sync API keeps a loop running in the test's thread): in a thread of its own."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, log_story(folder, api, locale)).result()
