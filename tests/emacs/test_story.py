"""The story's scripted run in a real Emacs, in English and zh-TW (issue 25): every line
`*kesi*` shows but the model's words and the plan is the line the log-only client reads, its
footer is the server's last line of the run, and the edit review asks the server's question
with its answers in its order, Deny first (the seed's words under zh-TW)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.catalog import Locale, text
from tests.emacs.conftest import OpenEmacs
from tests.emacs.session import start_kesi
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

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("locale", LOCALES)
def test_emacs_shows_the_servers_lines_of_the_story(
    open_emacs: OpenEmacs, scripted_api: StartServer, tmp_path: Path, locale: Locale
) -> None:
    reference = reference_story(project(tmp_path / "log"), scripted_api(story_script()), locale)
    folder = project(tmp_path / "calc")
    api = scripted_api(story_script())
    kesi = start_kesi(open_emacs, folder, api.base_url, settings={"locale": locale})
    ed = kesi.ed
    ed.command("kesi-ask")
    ed.wait_until(lambda: "KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type(PROMPT)
    ed.keys("Enter")

    kesi.wait_review()
    deny, once, session = (
        text(f"permissions.answer.{k}", locale) for k in ("deny", "once", "session")
    )
    header = ed.eval(
        "(format-mode-line (buffer-local-value 'header-line-format"
        " (cl-find-if (lambda (b) (buffer-local-value 'kesi-review--respond b)) (buffer-list))))"
    )
    assert f"r {deny} · a {once} · A {session}" in header, header
    assert text("lsp.prompt.question", locale) in header, header
    ed.type("a")
    screen = kesi.wait_prompt(PYTEST)
    assert f"{deny}, {once}, {session}" in screen, screen
    ed.type(once)
    ed.keys("Enter")
    assert kesi.wait_finished()["status"] == "done"
    assert (folder / "calc.py").read_text(encoding="utf-8") == CALC_FIXED

    out = kesi.output()
    *body, footer = [line for line in out if not line.startswith("── ") or line is out[-1]]
    assert story(body, folder, locale) == bill_free(reference.lines, reference.bill, folder)
    assert masked(footer, folder) == masked("── " + reference.finished["line"], folder)
    said = [masked(line, folder) for line in ed.messages().splitlines()]
    assert masked(f"KeSi: {reference.finished['line']}", folder) in said, "the echo area's line"
