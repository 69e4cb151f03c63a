"""The story's scripted run in a real VS Code, in English and zh-TW (issue 25): every line the
**KeSi** output channel shows but the model's words and the plan is the line the log-only
client reads, the run's last rule is the server's last line of the run, and the diff-editor
review asks the server's question with its buttons in its order, Deny first (the seed's
words under zh-TW)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.catalog import Locale, text
from tests.plugins.scripted_api import StartServer
from tests.story.run import (
    CALC_FIXED,
    LOCALES,
    PROMPT,
    PYTEST,
    bill_free,
    masked,
    project,
    reference_story,
    story,
    story_script,
)
from tests.vscode.panel import Panel
from tests.vscode.session import OpenVSCode

pytestmark = [pytest.mark.editor, pytest.mark.slow, pytest.mark.timeout(360)]

RULE = "━━ "


@pytest.mark.parametrize("locale", LOCALES)
def test_vscode_shows_the_servers_lines_of_the_story(
    vscode: OpenVSCode, scripted_api: StartServer, tmp_path: Path, locale: Locale
) -> None:
    reference = reference_story(project(tmp_path / "log"), scripted_api(story_script()), locale)
    folder = project(tmp_path / "calc")
    api = scripted_api(story_script())
    settings = {"kesi.review": "diffEditor", "kesi.locale": locale}
    session = vscode(folder, api_url=api.base_url, settings=settings)
    wb = session.workbench
    wb.run_command("KeSi: Ask")
    wb.type_into_input_box(PROMPT)

    deny, once, session_wide = (
        text(f"permissions.answer.{k}", locale) for k in ("deny", "once", "session")
    )
    panel = Panel(wb)
    asked = text("lsp.prompt.question", locale)
    assert panel.buttons(panel.question(asked)) == [deny, once, session_wide]
    assert (folder / "calc.py").read_text(encoding="utf-8") != CALC_FIXED
    panel.answer(asked, once)
    prompt = panel.answer(PYTEST, once)
    assert deny in prompt and session_wide in prompt

    done = RULE + text("lsp.status.done", locale) + " · "
    wb.wait_until(lambda: done in session.output_channel(), 120_000, "the run to end")
    assert (folder / "calc.py").read_text(encoding="utf-8") == CALC_FIXED

    lines = session.output_channel().splitlines()
    body = [line for line in lines if not line.startswith(RULE)]
    footer = next(line for line in reversed(lines) if line.startswith(RULE))
    assert story(body, folder, locale) == bill_free(reference.lines, reference.bill, folder)
    assert masked(footer, folder) == masked(f"{RULE}{reference.finished['line']} ━━", folder)
