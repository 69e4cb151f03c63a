"""An edit's prompt as a generic client shows it on an 80×24 screen (issue 30, item 6).

`window/showMessageRequest` carries the diff. Emacs' minibuffer (lsp-mode, eglot) grows to a
quarter of the frame, six rows at 24, and shows the end of a long prompt; Vim lists the message
and its choices and scrolls the top away past a screenful. So what is asked (the file, the
action) and the question come last, the question names the answers (lsp-mode lists them only
after TAB), the diff is cut to fit a screen, and the cut says where the whole diff is: the log,
which gets it before the prompt. KeSi's own clients show the buttons: their question stays
short."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tests.lsp.clients import ALLOW_ONCE, kesi_client
from tests.lsp.conftest import AgentCommand

COLUMNS, ROWS = 80, 24
MINIBUFFER_ROWS = ROWS // 4  # Emacs' max-mini-window-height 0.25


def screen_rows(message: str) -> list[str]:
    """`message` as rows of an 80-column screen (long lines wrap)."""
    rows: list[str] = []
    for line in message.splitlines():
        rows += textwrap.wrap(line, COLUMNS, drop_whitespace=False) or [""]
    return rows


async def test_a_long_edit_prompt_fits_the_screen_with_what_is_asked_last(
    tmp_path: Path, scripted_agent: AgentCommand
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    old = "".join(
        f"VALUE_{i} = {i}  # a setting that the agent rewrites in full\n" for i in range(60)
    )
    (project / "settings_module.py").write_text(old, encoding="utf-8")
    new = old.replace("= ", "= 10 * ")
    steps = [
        {"do": "read", "path": "settings_module.py"},
        {"do": "edit", "path": "settings_module.py", "old": old, "new": new},
    ]
    async with kesi_client("lsp-mode", [project], server=scripted_agent(steps)) as editor:
        editor.answer_prompt = lambda params: ALLOW_ONCE
        await editor.command("kesi.ask", {"prompt": "rewrite the settings"})
        await editor.timeline.wait_shown("KeSi: ", 60)
    (prompt,) = editor.prompts
    rows = screen_rows(prompt.message)
    asked = "[Permission needed] edit_file changes file: settings_module.py"
    # Emacs: the minibuffer's rows (its last is where the answer is typed) show what is asked,
    # and the answers: lsp-mode lists a prompt's choices only after TAB.
    question = "Allow it? (Deny / Allow once / Allow for this session)"
    assert rows[-2:] == [asked, question], rows[-MINIBUFFER_ROWS:]
    assert any(r.startswith("-VALUE_") for r in rows[-MINIBUFFER_ROWS:])  # and the diff above
    # Vim: the message, its three choices and the input line fit one screen: nothing scrolls.
    assert len(rows) + 3 + 1 <= ROWS, len(rows)
    assert "more diff lines: the whole diff is in the KeSi log" in prompt.message
    logged = [m for m in editor.log_lines() if m.startswith(asked)]
    assert len(logged) == 1 and logged[0].count("\n+VALUE_") == 60
    assert (project / "settings_module.py").read_text(encoding="utf-8") == new


async def test_a_short_edit_prompt_shows_the_whole_diff(
    tmp_path: Path, scripted_agent: AgentCommand
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n", encoding="utf-8")
    steps = [
        {"do": "read", "path": "calc.py"},
        {"do": "edit", "path": "calc.py", "old": "a - b", "new": "a + b"},
    ]
    async with kesi_client("yegappan", [project], server=scripted_agent(steps)) as editor:
        editor.answer_prompt = lambda params: ALLOW_ONCE
        await editor.command("kesi.ask", {"prompt": "fix add"})
        await editor.timeline.wait_shown("KeSi: ", 60)
    (prompt,) = editor.prompts
    lines = prompt.message.splitlines()
    assert "-    return a - b" in lines and "+    return a + b" in lines
    asked = "[Permission needed] edit_file changes file: calc.py"
    assert lines[-2:] == [asked, "Allow it? (Deny / Allow once / Allow for this session)"]
    assert "more diff lines" not in prompt.message


async def test_a_kesi_client_gets_the_short_question(
    tmp_path: Path, scripted_agent: AgentCommand
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("A = 1\n", encoding="utf-8")
    steps = [
        {"do": "read", "path": "a.py"},
        {"do": "edit", "path": "a.py", "old": "A = 1", "new": "A = 2"},
    ]
    async with kesi_client("neovim", [project], server=scripted_agent(steps)) as editor:
        editor.answer_prompt = lambda params: ALLOW_ONCE
        await editor.command("kesi.ask", {"prompt": "change A"})
        await editor.timeline.wait_for(lambda m, p: m == "kesi/runFinished", 60)
    (prompt,) = editor.prompts
    assert prompt.message.splitlines()[-1] == "Allow it?"
