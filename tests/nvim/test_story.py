"""The story's scripted run in a real Neovim, in English and zh-TW (issue 25): every line
`kesi://output` shows but the model's words and the plan is the line the log-only client reads,
its footer is the server's last line of the run, and the edit review asks the server's
question with its answers in its order, Deny first (the seed's words under zh-TW)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.catalog import Locale, text
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import start_kesi
from tests.plugins.scripted_api import StartServer
from tests.story.run import (
    CALC_FIXED,
    LOCALES,
    PROMPT,
    bill_free,
    masked,
    project,
    reference_story,
    story,
    story_script,
)

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("locale", LOCALES)
def test_neovim_shows_the_servers_lines_of_the_story(
    open_editor: OpenEditor, scripted_api: StartServer, tmp_path: Path, locale: Locale
) -> None:
    reference = reference_story(project(tmp_path / "log"), scripted_api(story_script()), locale)
    folder = project(tmp_path / "calc")
    api = scripted_api(story_script())
    kesi = start_kesi(open_editor, folder, api.base_url, setup={"server": {"locale": locale}})
    ed = kesi.ed
    ed.keys(f":KeSiAsk {PROMPT}<CR>")

    kesi.wait_review()
    winbar = ed.lua(
        "local _, v = next(require('kesi.review').views) return vim.wo[v.wins[2]][0].winbar"
    )
    deny, once, session = (
        text(f"permissions.answer.{k}", locale) for k in ("deny", "once", "session")
    )
    assert f"gr/q {deny} · ga {once} · gA {session}" in winbar, winbar
    assert text("lsp.prompt.question", locale) in winbar, winbar
    ed.keys("ga")
    assert kesi.wait_select()["items"] == [deny, once, session]
    ed.keys("2<CR>")
    assert kesi.wait_finished()["status"] == "done"
    assert (folder / "calc.py").read_text(encoding="utf-8") == CALC_FIXED

    out = ed.output()
    *body, footer = [line for line in out if not line.startswith("── ") or line is out[-1]]
    assert story(body, folder, locale) == bill_free(reference.lines, reference.bill, folder)
    assert masked(footer, folder) == masked("── " + reference.finished["line"], folder)
