"""The **KeSi** panel as a person uses it, as Playwright steps: read the session, answer a
question with its buttons, reply through the box, cancel (issue 32).

The panel is a webview view: VS Code hosts it in an iframe (`iframe.webview`) whose page holds
another (`#active-frame`) with the panel's own page.
"""

from __future__ import annotations

import re

from playwright.sync_api import FrameLocator, Locator

from tests.vscode.workbench import Workbench, _normal


class Panel:
    def __init__(self, workbench: Workbench) -> None:
        self.wb = workbench
        self.page = workbench.page

    def frame(self) -> FrameLocator:
        host = self.page.locator("iframe.webview.ready").first
        return host.content_frame.frame_locator("#active-frame")

    def visible(self) -> bool:
        host = self.page.locator(".pane", has=self.page.locator(".pane-header", has_text="KeSi"))
        frames = self.page.locator("iframe.webview.ready")
        return host.count() > 0 and frames.count() > 0 and frames.first.is_visible()

    def log(self) -> Locator:
        return self.frame().locator("#log")

    def text(self) -> str:
        return _normal(self.log().inner_text())

    def wait_text(self, text: str, timeout: float = 90_000) -> None:
        self.wb.wait_until(lambda: text in self.text(), timeout, f"{text!r} in the KeSi panel")

    def question(self, text: str | re.Pattern[str], timeout: float = 90_000) -> Locator:
        """The open question that says `text`."""
        found = self.log().locator("section.question.open", has_text=text)
        found.first.wait_for(timeout=timeout)
        return found.first

    def buttons(self, question: Locator) -> list[str]:
        """The question's own buttons (a review's hunks have theirs: Accept, Reject)."""
        own = question.locator(":scope > .buttons button")
        return [_normal(t) for t in own.all_inner_texts()]

    def answer(self, text: str | re.Pattern[str], button: str, keyboard: bool = False) -> str:
        """Press `button` on the question that says `text` (by the keyboard: focus and Enter,
        as a screen-reader user would); return the question's text."""
        question = self.question(text)
        said = _normal(question.inner_text())
        target = question.locator(
            ":scope > .buttons button", has_text=re.compile(rf"^{re.escape(button)}$")
        )
        if keyboard:
            target.focus()
            target.press("Enter")
        else:
            target.click()
        return said

    def reply(self, prompt: str) -> None:
        box = self.frame().locator("#prompt")
        box.fill(prompt)
        box.press("Control+Enter")

    def cancel(self) -> None:
        self.frame().locator("#cancel").click()

    def status(self) -> str:
        return _normal(self.frame().locator("#status").inner_text())
