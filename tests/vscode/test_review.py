"""The default review in a real VS Code shows the change (issue 32): a diff editor with KeSi's
proposal on the right at once, the question in the KeSi panel (the server's words, Deny first),
and "waiting for you" in the status bar until every change is decided. No `kesi.review` setting:
this is what a new user gets. With the user's `diffEditor.codeLens` on, Reject / Accept lenses
sit over each change too, decided with the panel; without it (VS Code's default, which the
extension leaves alone) no lens shows and the panel's hunks decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from playwright.sync_api import Locator

from kesi_lsp.catalog import Locale, text
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.plugins.scripted_api import StartServer
from tests.vscode.panel import Panel
from tests.vscode.project import failing_project
from tests.vscode.session import OpenVSCode
from tests.vscode.workbench import Workbench

pytestmark = [pytest.mark.editor, pytest.mark.slow, pytest.mark.timeout(360)]

RATES = "".join(f"RATE_{i} = {i}\n" for i in range(1, 21))
BOTH = RATES.replace("RATE_2 = 2\n", "RATE_2 = 20\n").replace("RATE_19 = 19\n", "RATE_19 = 190\n")
ONLY_SECOND = RATES.replace("RATE_19 = 19\n", "RATE_19 = 190\n")
LENSES = {"en": ("Reject", "Accept"), "zh-TW": ("拒絕", "接受")}  # the panel's hunk words
TAB = {"en": "KeSi's proposal: rates.py", "zh-TW": "KeSi 的提議：rates.py"}  # the server's
WAITING = {"en": "KeSi: waiting for you — review 2 changes", "zh-TW": "KeSi：等你檢查 2 處修改"}


def _start(
    vscode: OpenVSCode, scripted_api: StartServer, tmp_path: Path, settings: Mapping[str, object]
) -> tuple[Path, Workbench, Panel]:
    project = failing_project(tmp_path)
    (project / "rates.py").write_text(RATES)
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "rates.py"})),
            reply("Two rates.", tool_use("write_file", {"file_path": "rates.py", "content": BOTH})),
            reply("Only the second one, then."),
        )
    )
    session = vscode(project, api_url=api.base_url, settings=settings)
    wb = session.workbench
    wb.run_command("KeSi: Ask")
    wb.type_into_input_box("Fix the rates")
    return project, wb, Panel(wb)


def _proposal_shown(wb: Workbench, locale: Locale) -> Locator:
    """The diff editor's proposed side, once KeSi's new line is on screen in it, under a tab
    named for what it is."""
    wb.page.locator(".tab", has_text=TAB[locale]).first.wait_for(timeout=30_000)
    proposed = wb.page.locator(".monaco-diff-editor .editor.modified")
    proposed.locator(".view-line", has_text="RATE_19 = 190").first.wait_for(timeout=30_000)
    return proposed


def _answered(wb: Workbench, project: Path, locale: Locale) -> None:
    """Only the second change landed, KeSi no longer waits, and the proposal is closed."""
    wb.wait_until(
        lambda: (project / "rates.py").read_text() == ONLY_SECOND, 60_000, "the accepted change"
    )
    wb.wait_until(lambda: WAITING[locale] not in wb.status_text(), 30_000, "no longer waiting")
    wb.wait_until(
        lambda: wb.page.locator(".monaco-diff-editor .editor.modified").count() == 0,
        30_000,
        "the proposal closed",
    )


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_proposal_with_a_lens_per_change_when_diff_lenses_are_on(
    vscode: OpenVSCode, scripted_api: StartServer, tmp_path: Path, locale: Locale
) -> None:
    settings = {"kesi.locale": locale, "diffEditor.codeLens": True}
    project, wb, panel = _start(vscode, scripted_api, tmp_path, settings)

    # The question in the panel, in the server's words, the safe answer first.
    review = panel.question(text("lsp.prompt.question", locale))
    answers = [text(f"permissions.answer.{k}", locale) for k in ("deny", "once", "session")]
    assert panel.buttons(review) == answers
    proposed = _proposal_shown(wb, locale)
    # Reject, then Accept, over each of its two changes.
    reject, accept = LENSES[locale]
    lenses = proposed.locator(".codelens-decoration a")
    wb.wait_until(lambda: lenses.count() == 4, 30_000, "a Reject and an Accept lens per change")
    assert [t.strip() for t in lenses.all_inner_texts()] == [reject, accept, reject, accept]
    wb.wait_until(lambda: WAITING[locale] in wb.status_text(), 15_000, "the status bar waiting")
    assert (project / "rates.py").read_text() == RATES  # nothing lands before the answer

    lenses.nth(0).click()  # the first change rejected, in the editor
    wb.wait_until(
        lambda: review.locator(".hunk.rejected").count() == 1, 15_000, "the panel follows"
    )
    wb.wait_until(lambda: f"✗ {reject}" in lenses.all_inner_texts(), 15_000, "the lens marked")
    assert WAITING[locale] in wb.status_text()  # still waiting: one change is open
    assert (project / "rates.py").read_text() == RATES
    lenses.nth(3).click()  # the second accepted: every change decided, that is the answer
    _answered(wb, project, locale)


def test_the_default_review_leaves_diff_lenses_off_and_the_panel_decides(
    vscode: OpenVSCode, scripted_api: StartServer, tmp_path: Path
) -> None:
    """VS Code's own default for every diff editor (no lenses) is kept: a Git diff does not
    sprout every extension's lenses because KeSi is installed."""
    locale: Locale = "zh-TW"
    project, wb, panel = _start(vscode, scripted_api, tmp_path, {"kesi.locale": locale})
    review = panel.question(text("lsp.prompt.question", locale))
    proposed = _proposal_shown(wb, locale)
    wb.wait_until(lambda: WAITING[locale] in wb.status_text(), 15_000, "the status bar waiting")
    wb.wait_until(lambda: review.locator(".hunk").count() == 2, 30_000, "both hunks in the panel")
    assert proposed.locator(".codelens-decoration").count() == 0
    assert (project / "rates.py").read_text() == RATES  # nothing lands before the answer

    reject, accept = LENSES[locale]
    review.locator(".hunk").nth(0).locator("button", has_text=reject).click()
    wb.wait_until(lambda: review.locator(".hunk.rejected").count() == 1, 15_000, "rejected")
    assert WAITING[locale] in wb.status_text()  # still waiting: one change is open
    review.locator(".hunk").nth(1).locator("button", has_text=accept).click()
    _answered(wb, project, locale)
