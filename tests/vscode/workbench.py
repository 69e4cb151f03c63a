"""What a person does in VS Code, as Playwright steps: palette, quick open, notifications,
the Refactor Preview, the output panel and the status bar.

Selectors are VS Code's own (1.100): each helper waits for what a user would wait for and
fails with what it saw instead.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

KESI_STATUS = "[id='kesi.kesi-vscode.kesi.status']"
NBSP = "\u00a0"


def _normal(text: str) -> str:
    return text.replace(NBSP, " ").replace("\u200b", "")


_INLINE_TEXTS = """() => {
  const lines = [...document.querySelectorAll(
    ".editor-instance .monaco-editor .view-lines .view-line")];
  lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
  const found = [];
  for (const line of lines) {
    for (const span of line.querySelectorAll("span")) {
      const content = getComputedStyle(span, "::after").content;
      if (content && content !== "none" && content !== "normal") {
        try { found.push(JSON.parse(content)); } catch { found.push(content); }
      }
    }
  }
  return found;
}"""


class Workbench:
    def __init__(self, page: Page, artifacts: Path) -> None:
        self.page = page
        self.artifacts = artifacts

    # -- opening -----------------------------------------------------------------------------

    def open(self, url: str, timeout: float = 90_000) -> None:
        """Load the workbench and wait until the explorer shows the folder."""
        self.page.goto(url)
        self.page.wait_for_selector(".monaco-workbench", timeout=timeout)
        self.page.wait_for_selector(".explorer-folders-view .monaco-list-row", timeout=timeout)

    def wait_for_kesi(self, failed: Callable[[], str | None], timeout: float = 60_000) -> str:
        """Wait for the KeSi status bar item to show a running server; return its text.

        `failed()` returns why the server is not running (then this fails at once), or None.
        """
        self.page.locator(KESI_STATUS).wait_for(timeout=timeout)

        def ready() -> bool:
            if "$" in self.status_text():
                return True
            reason = failed()
            if reason is not None:
                raise AssertionError(f"kesi-lsp did not start:\n{reason}")
            return False

        self.wait_until(ready, timeout, "KeSi's server to start")
        return self.status_text()

    def open_file(self, relative: str) -> None:
        """Quick Open (Ctrl+P) exactly that file, then wait for its editor tab to be active."""
        name = Path(relative).name
        self.focus_workbench()
        self.page.keyboard.press("Control+P")
        box = self.page.locator(".quick-input-widget input")
        box.wait_for()
        box.fill(relative)
        # "calc.py" also matches a recently opened "test_calc.py": pick the exact name.
        self.pick_quick_input_row(f".monaco-list-row[aria-label^='{name},']")
        self.page.locator(f".tab.active[aria-label^='{name}']").wait_for()
        self.page.locator(".editor-instance .monaco-editor .view-lines").first.wait_for()

    def pick_quick_input_row(self, selector: str, tries: int = 20) -> None:
        """Move the quick input's focus to the row matching `selector`, then press Enter."""
        rows = self.page.locator(".quick-input-list")
        rows.locator(selector).first.wait_for()
        for _ in range(tries):
            if rows.locator(f"{selector}.focused").count():
                self.page.keyboard.press("Enter")
                return
            self.page.keyboard.press("ArrowDown")
        raise AssertionError(f"no quick input row {selector}")

    def focus_workbench(self) -> None:
        self.page.locator(".monaco-workbench").focus()

    # -- editor ------------------------------------------------------------------------------

    def click_editor(self) -> None:
        self.page.locator(".editor-instance .monaco-editor .view-lines").first.click()

    def select_all(self) -> None:
        self.click_editor()
        self.page.keyboard.press("Control+A")

    def goto_line(self, line: int) -> None:
        self.click_editor()
        self.page.keyboard.press("Control+G")
        box = self.page.locator(".quick-input-widget input")
        box.wait_for()
        box.fill(f":{line}")
        self.page.keyboard.press("Enter")

    def editor_text(self) -> str:
        lines = self.page.locator(".editor-instance .monaco-editor .view-lines .view-line")
        return "\n".join(_normal(line) for line in lines.all_inner_texts())

    def inline_texts(self) -> list[str]:
        """What the active editor shows after its lines' code through decorations, top to
        bottom. VS Code draws an extension's `after` text as a `::after` pseudo-element, so it
        is in no line's text (`editor_text` never includes it); its computed content is what
        the user reads there."""
        return list(self.page.evaluate(_INLINE_TEXTS))

    def problems(self, timeout: float = 15_000) -> list[str]:
        """Open the Problems panel (Ctrl+Shift+M, which also closes it: only when it is not
        open) and return its rows ([] when it says that there are none)."""
        panel = self.page.locator(".markers-panel")
        if not panel.is_visible():
            self.focus_workbench()
            self.page.keyboard.press("Control+Shift+M")
        rows = panel.locator(".monaco-list-row")
        none = panel.get_by_text("No problems have been detected in the workspace.")
        self.wait_until(
            lambda: rows.count() > 0 or none.is_visible(), timeout, "the Problems panel"
        )
        return [_normal(row) for row in rows.all_inner_texts()]

    def active_tab_dirty(self) -> bool:
        return self.page.locator(".tab.active.dirty").count() > 0

    def tab_dirty(self, name: str) -> bool:
        tab = self.page.locator(f".tab[aria-label='{name}'], .tab[aria-label^='{name},']").first
        return "dirty" in (tab.get_attribute("class") or "").split()

    def unsaved_files(self) -> int:
        """How many documents VS Code holds unsaved (the Explorer's badge says it)."""
        icon = self.page.locator(".activitybar a.codicon-explorer-view-icon")
        found = re.search(r"(\d+) unsaved", icon.get_attribute("aria-label") or "")
        return int(found.group(1)) if found else 0

    def type_at_end(self, text: str) -> None:
        """Type at the end of the active editor, as a user would (the file stays unsaved)."""
        self.click_editor()
        self.page.keyboard.press("Control+End")
        self.page.keyboard.type(text)

    def code_action(self, title: str, tries: int = 3) -> None:
        """Open the lightbulb menu (Ctrl+.) on the selection and pick `title`."""
        widget = self.page.locator(".action-widget")
        row = widget.locator(f".monaco-list-row.action[aria-label='{title}']")
        empty = self.page.locator(
            ".monaco-editor-overlaymessage", has_text="No code actions available"
        )
        for _ in range(tries):
            self.page.keyboard.press("Control+.")
            # On a loaded machine the first request can race the document's first sync and
            # come back empty; VS Code then says so, and a user presses Ctrl+. again.
            row.or_(empty).first.wait_for()
            if row.count():
                break
            self.page.keyboard.press("Escape")
            empty.wait_for(state="hidden")
        else:
            raise AssertionError(f"VS Code offered no code actions ({tries} tries)")
        # Keyboard, as the menu sits under a pointer blocker while it opens.
        for _ in range(widget.locator(".monaco-list-row.action").count()):
            focused = widget.locator(".monaco-list-row.action.focused")
            if focused.count() and focused.first.get_attribute("aria-label") == title:
                self.page.keyboard.press("Enter")
                return
            self.page.keyboard.press("ArrowDown")
        raise AssertionError(f"no code action {title!r} in the lightbulb menu")

    # -- palette -----------------------------------------------------------------------------

    def run_command(self, title: str, tries: int = 3) -> None:
        """F1, type the command's title, pick exactly that entry (the selection stays).

        A palette opened while focus is still moving can close again under the typing; then
        the whole gesture is repeated, as a user would.
        """
        box = self.page.locator(".quick-input-widget input")
        row = self.page.locator(
            ".quick-input-list .monaco-list-row", has_text=re.compile(rf"^{re.escape(title)}")
        )
        for attempt in range(tries):
            try:
                self.page.keyboard.press("F1")
                box.wait_for(state="visible", timeout=5_000)
                box.fill(f">{title}", timeout=5_000)
                row.first.wait_for(timeout=10_000)
                self.page.keyboard.press("Enter")
                return
            except PlaywrightTimeout:
                if attempt == tries - 1:
                    raise
                self.page.keyboard.press("Escape")

    def fix_this(self, instruction: str = "") -> None:
        """**KeSi: Fix This** on the selection; its box asks what to keep in mind (Enter alone:
        find the cause and fix it)."""
        self.run_command("KeSi: Fix This")
        self.type_into_input_box(instruction)

    def type_into_input_box(self, text: str) -> None:
        box = self.page.locator(".quick-input-widget input")
        box.wait_for()
        box.fill(text)
        self.page.keyboard.press("Enter")

    # -- notifications -----------------------------------------------------------------------

    def notification(self, text: str | re.Pattern[str], timeout: float = 60_000) -> Locator:
        toast = self.page.locator(".notifications-toasts .notification-toast", has_text=text)
        toast.first.wait_for(timeout=timeout)
        return toast.first

    def notification_in_center(self, text: str, timeout: float = 30_000) -> str:
        """Open the notifications center (the bell) and return the notification that says
        `text`.

        VS Code shows at most three toasts per 800 ms and sends the rest straight to the
        center, so the answer to the fourth of four quick commands is found only there, as a
        user finds it (the center keeps every notification, shown as a toast or not).
        """
        self.run_command("Notifications: Show Notifications")
        item = self.page.locator(".notifications-center .notification-list-item", has_text=text)
        item.first.wait_for(timeout=timeout)
        message = _normal(item.first.inner_text())
        self.page.keyboard.press("Escape")
        return message

    def click_notification_button(
        self, text: str | re.Pattern[str], button: str, timeout: float = 60_000
    ) -> str:
        """Click `button` on the notification that says `text`; return the notification text."""
        toast = self.notification(text, timeout)
        message = _normal(toast.inner_text())
        toast.locator(".monaco-button", has_text=re.compile(rf"^{re.escape(button)}$")).click()
        return message

    def notification_texts(self) -> list[str]:
        toasts = self.page.locator(".notifications-toasts .notification-toast")
        return [_normal(text) for text in toasts.all_inner_texts()]

    # -- Refactor Preview --------------------------------------------------------------------

    def refactor_preview(self, timeout: float = 60_000) -> Locator:
        pane = self.page.locator(".bulk-edit-panel")
        pane.wait_for(timeout=timeout)
        return pane

    def refactor_preview_files(self) -> list[str]:
        pane = self.refactor_preview()
        return [_normal(t) for t in pane.locator(".monaco-list-row").all_inner_texts()]

    def tick_preview_file(self, name: str) -> None:
        """Tick the checkbox of the file row `name` (VS Code shows every change unticked)."""
        pane = self.refactor_preview()
        row = pane.locator(".monaco-list-row", has_text=name).first
        row.wait_for()
        row.locator("input.edit-checkbox").check()

    def preview_ticks(self) -> list[bool]:
        """Whether each row of the Refactor Preview (files and changes) is ticked."""
        boxes = self.refactor_preview().locator(".monaco-list-row input.edit-checkbox")
        return [box.is_checked() for box in boxes.all()]

    def apply_preview(self) -> None:
        self.refactor_preview().locator(".monaco-button", has_text=re.compile(r"^Apply$")).click()

    def discard_preview(self) -> None:
        self.refactor_preview().locator(".monaco-button", has_text=re.compile(r"^Discard$")).click()

    def wait_preview_closed(self, timeout: float = 30_000) -> None:
        self.page.locator(".bulk-edit-panel").wait_for(state="hidden", timeout=timeout)

    # -- output and status -------------------------------------------------------------------

    def output_panel_text(self) -> str:
        """The visible text of the Output panel's editor (the last screenful of the channel)."""
        lines = self.page.locator(".part.panel .monaco-editor .view-lines .view-line")
        return "\n".join(_normal(line) for line in lines.all_inner_texts())

    def output_channel_selected(self) -> str:
        select = self.page.locator(".part.panel select.monaco-select-box")
        if select.count() == 0:
            return ""
        return _normal(select.first.evaluate("s => s.options[s.selectedIndex].text"))

    def plan_view(self) -> Locator:
        """The **KeSi Plan** view's pane in the Explorer."""
        header = self.page.locator(".pane-header", has_text="KeSi Plan")
        return self.page.locator(".pane", has=header).first

    def open_plan(self) -> None:
        """Open the KeSi Plan pane as a user would, by its header, when it is collapsed."""
        header = self.plan_view().locator(".pane-header").first
        if header.get_attribute("aria-expanded") == "false":
            header.click()

    def plan_rows(self) -> list[str]:
        """The rows of the KeSi Plan view as they read: the step, and after it its description
        when it has one ("Fix the sign · in progress")."""
        out = []
        for row in self.plan_view().locator(".monaco-list-row").all():
            parts = [
                _normal(part).strip()
                for part in row.locator(".label-name, .label-description").all_inner_texts()
            ]
            out.append(" · ".join(part for part in parts if part))
        return out

    def plan_description(self) -> str:
        pane = self.plan_view().locator(".pane-header .description")
        return _normal(pane.inner_text()).strip() if pane.count() else ""

    def status_text(self) -> str:
        item = self.page.locator(KESI_STATUS)
        return _normal(item.inner_text()).strip() if item.count() else ""

    def status_tooltip(self, text: str, timeout: float = 15_000) -> str:
        """Hover the KeSi status bar item until its tooltip shows `text`; return the tooltip."""
        hover = self.page.locator(".workbench-hover, .monaco-hover").filter(has_text=text)
        deadline = time.monotonic() + timeout / 1000
        while time.monotonic() < deadline:
            self.page.mouse.move(0, 0)
            self.page.locator(KESI_STATUS).hover()
            try:
                hover.first.wait_for(state="visible", timeout=3_000)
                return _normal(hover.first.inner_text())
            except PlaywrightTimeout:
                continue
        raise AssertionError(f"the status bar tooltip never showed {text!r}")

    # -- waiting and evidence ----------------------------------------------------------------

    def wait_until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout / 1000
        while time.monotonic() < deadline:
            try:
                if condition():
                    return
            except PlaywrightTimeout:
                pass
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what}")

    def screenshot(self, name: str) -> Path:
        self.artifacts.mkdir(parents=True, exist_ok=True)
        path = self.artifacts / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path
