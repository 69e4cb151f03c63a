"""The **KeSi** panel in a real VS Code, in English and zh-TW (issue 32): a run streams into
it as rendered markdown with each tool call on one line, KeSi's question is answered with its
buttons in place (by the keyboard), the run ends with its verdict and bill, the reply box
continues the same conversation, and Cancel stops a run. No KeSi notification covers the work
meanwhile; the status bar carries the step and says when KeSi waits for the user."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kesi_lsp.catalog import Locale, text
from kesi_lsp.scripted_api import reply, script, stall_after, tool_use
from tests.plugins.scripted_api import StartServer
from tests.vscode.conftest import ARTIFACTS
from tests.vscode.panel import Panel
from tests.vscode.project import COMMAND, failing_project
from tests.vscode.session import OpenVSCode

pytestmark = [pytest.mark.editor, pytest.mark.slow, pytest.mark.timeout(360)]


def _script() -> object:
    return script(
        reply(
            "The test fails because **`add` subtracts**:\n\n- read `calc.py`\n- run the tests",
            tool_use("read_file", {"file_path": "calc.py"}),
        ),
        reply("Running the tests.", tool_use("run_command", {"command": COMMAND})),
        reply("The tests ran; `add` still needs the fix."),
        reply(
            "You asked about the sign: it is on line 2.",
            expect={"last_user_text_contains": "which line"},
        ),
        stall_after(8, "Let me think about this carefully first.", seconds=60),
    )


RATES = "".join(f"RATE_{i} = {i}\n" for i in range(1, 21))
# Two changes far apart: the server's diff has two hunks.
BOTH = RATES.replace("RATE_2 = 2\n", "RATE_2 = 20\n").replace("RATE_19 = 19\n", "RATE_19 = 190\n")
ONLY_FIRST = RATES.replace("RATE_2 = 2\n", "RATE_2 = 20\n")


def _no_kesi_notification(wb: object) -> None:
    texts = wb.notification_texts()  # type: ignore[attr-defined]
    assert not any("KeSi" in t or COMMAND in t for t in texts), texts


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_panel_holds_the_session(
    vscode: OpenVSCode, scripted_api: StartServer, tmp_path: Path, locale: Locale
) -> None:
    project = failing_project(tmp_path)
    api = scripted_api(_script())
    session = vscode(project, api_url=api.base_url, settings={"kesi.locale": locale})
    wb = session.workbench
    panel = Panel(wb)
    wb.run_command("KeSi: Ask")
    wb.type_into_input_box("Why does test_add fail?")

    # The question waits in the panel with the server's buttons, Deny first.
    deny, once, always = (
        text(f"permissions.answer.{k}", locale) for k in ("deny", "once", "session")
    )
    question = panel.question(text("lsp.prompt.question", locale))
    assert panel.buttons(question) == [deny, once, always]
    scope = text("lsp.prompt.scope_command", locale, answer=always)
    assert scope in question.inner_text()
    waiting = {"en": "KeSi: waiting for you — answer a question", "zh-TW": "KeSi：等你回答一個問題"}
    wb.wait_until(lambda: waiting[locale] in wb.status_text(), 15_000, "the status bar waiting")
    _no_kesi_notification(wb)
    # Streamed text is rendered markdown; the tool call is one line, its result folded.
    log = panel.log()
    assert log.locator("strong code", has_text="add").count() >= 1
    assert log.locator("li", has_text="calc.py").count() == 1
    assert log.locator("details.tool summary").first.inner_text().strip().endswith("calc.py")
    if locale == "en":
        wb.screenshot("panel-question")
    panel.answer(text("lsp.prompt.question", locale), once, keyboard=True)

    end = text("lsp.status.done", locale) + " · "
    wb.wait_until(
        lambda: log.locator("section.end .line", has_text=end).count() == 1, 90_000, "the end"
    )
    _no_kesi_notification(wb)
    assert "`add` still needs the fix" not in panel.text()  # rendered, backticks gone
    assert log.locator("code", has_text="add").count() >= 2
    assert text("lsp.prompt.question", locale) in panel.text()  # the answered question stays

    # A follow-up through the reply box continues the same conversation.
    panel.reply("which line is it?")
    wb.wait_until(lambda: log.locator("section.end").count() == 2, 90_000, "the follow-up's end")
    assert "it is on line 2." in panel.text()
    assert len(api.requests[3].body["messages"]) > 3, "the same conversation"

    # Cancel stops a run that streams and then stalls.
    panel.reply("think about it")
    panel.wait_text("Let me think about")  # the stream stalls after its first words
    _no_kesi_notification(wb)
    panel.cancel()
    cancelled = text("lsp.status.cancelled", locale)
    wb.wait_until(
        lambda: log.locator("section.end .line", has_text=cancelled).count() == 1,
        30_000,
        "the cancelled run's end",
    )
    _no_kesi_notification(wb)


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_an_edit_reviewed_hunk_by_hunk_in_the_panel(
    vscode: OpenVSCode, scripted_api: StartServer, tmp_path: Path, locale: Locale
) -> None:
    project = failing_project(tmp_path)
    (project / "rates.py").write_text(RATES)
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "rates.py"})),
            reply(
                "Two rates are **ten times** too low.",
                tool_use("write_file", {"file_path": "rates.py", "content": BOTH}),
            ),
            reply("Only the first one, then."),
        )
    )
    settings = {"kesi.locale": locale, "kesi.review": "diffEditor"}
    session = vscode(project, api_url=api.base_url, settings=settings)
    wb = session.workbench
    panel = Panel(wb)
    wb.run_command("KeSi: Ask")
    wb.type_into_input_box("Fix the rates")

    # The why and the what together: the explanation, then the proposal's two hunks inline,
    # each with its own Accept and Reject, the removed and the added line both shown.
    review = panel.question(text("lsp.prompt.question", locale))
    wb.wait_until(lambda: review.locator(".hunk").count() == 2, 30_000, "both hunks")
    assert review.locator(".hunk pre.diff .del", has_text="RATE_2 = 2").count() == 1
    assert review.locator(".hunk pre.diff .add", has_text="RATE_19 = 190").count() == 1
    assert panel.log().locator("strong", has_text="ten times").count() == 1
    waiting = {"en": "KeSi: waiting for you — review 2 changes", "zh-TW": "KeSi：等你檢查 2 處修改"}
    wb.wait_until(lambda: waiting[locale] in wb.status_text(), 15_000, "the status bar waiting")
    _no_kesi_notification(wb)
    if locale == "en":  # the README's picture (docs/images/vscode-panel.png) is this one
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(wb.screenshot("panel-review"), ARTIFACTS / "vscode-panel.png")
    assert (project / "rates.py").read_text() == RATES  # nothing lands before the answer

    accept, reject = (text_of(locale, k) for k in ("accept", "reject"))
    review.locator(".hunk").nth(0).locator("button", has_text=accept).click()
    wb.wait_until(
        lambda: review.locator(".hunk.accepted").count() == 1, 10_000, "the first hunk accepted"
    )
    second = review.locator(".hunk").nth(1).locator("button", has_text=reject)
    second.focus()
    second.press("Enter")  # by the keyboard, as a screen-reader user would

    # Every hunk decided: that is the answer; only the accepted hunk lands.
    wb.wait_until(
        lambda: (project / "rates.py").read_text() == ONLY_FIRST, 60_000, "the accepted hunk"
    )
    end = text("lsp.status.done", locale) + " · "
    log = panel.log()
    wb.wait_until(
        lambda: log.locator("section.end .line", has_text=end).count() == 1, 90_000, "the end"
    )
    assert ANSWERED[locale] in panel.text()
    assert log.locator("section.question.open").count() == 0
    _no_kesi_notification(wb)


ANSWERED = {"en": "1 of 2 changes accepted", "zh-TW": "接受了 2 處變更中的 1 處"}


def text_of(locale: Locale, key: str) -> str:
    """The panel's own words for a hunk's buttons (the client's, in editors/vscode)."""
    return {
        "en": {"accept": "Accept", "reject": "Reject"},
        "zh-TW": {"accept": "接受", "reject": "拒絕"},
    }[locale][key]
