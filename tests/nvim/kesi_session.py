"""Helpers for end-to-end tests: a Neovim editing a project, with kesi-lsp and a scripted API.

`start_kesi(open_editor, project, server)` opens `calc.py` in a headless Neovim whose kesi-lsp
talks to the scripted Messages API `server`, and waits until the server has initialized.
`KesiEditor` adds the waits a test needs (a review open, a prompt asked, a run ended).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.nvim.conftest import OpenEditor
from tests.nvim.harness import Editor, EditorError

FAKE_KEY = "sk-ant-test-nvim"


class KesiEditor:
    """An Editor plus KeSi-specific waits and readings."""

    def __init__(self, ed: Editor) -> None:
        self.ed = ed

    def wait_client(self) -> int:
        """Wait until kesi-lsp is initialized for the current buffer (fail fast if it died)."""

        def ready() -> int | None:
            state = self.ed.lua(
                "local c = vim.lsp.get_clients({ name = 'kesi', bufnr = 0 })[1] "
                "if c and c.initialized then return c.id end "
                "return vim.fn.execute('messages'):find('Client kesi quit') and -1 or 0"
            )
            if state == -1:
                raise EditorError(f"kesi-lsp exited at start-up\n{self.ed.story()}")
            return int(state) or None

        return int(self.ed.wait_until(ready, "kesi-lsp to start and attach"))

    def finished_runs(self) -> list[dict[str, Any]]:
        """Runs that ended, oldest first: [{id, title, status, cost}]."""
        runs = self.ed.lua(
            "local out = {} for _, r in pairs(require('kesi.runs').runs) do "
            "if r.finished then table.insert(out, { id = r.id, title = r.title, "
            "status = r.status, cost = r.cost, finished = r.finished }) end end "
            "return out"
        )
        return sorted(runs, key=lambda r: r["finished"])

    def wait_finished(self, count: int = 1, timeout: float = 60.0) -> dict[str, Any]:
        """Wait until `count` runs have ended; return the last one to end."""
        self.ed.wait_until(
            lambda: len(self.finished_runs()) >= count, f"{count} run(s) to finish", timeout
        )
        return self.finished_runs()[-1]

    def _while_running(self, check: Callable[[], Any], what: str) -> Any:
        """Wait for `check`, but fail at once if a run ends meanwhile (it will not come)."""
        ended = len(self.finished_runs())

        def poll() -> Any:
            value = check()
            if not value and len(self.finished_runs()) > ended:
                raise EditorError(f"the run ended while waiting for {what}\n{self.ed.story()}")
            return value

        return self.ed.wait_until(poll, what)

    def wait_review(self, number: int = 1) -> dict[str, Any]:
        """Wait for the `number`-th review view; return {path, before, after} as shown."""
        self._while_running(
            lambda: self.ed.lua(
                f"return require('kesi.review').opened >= {number} "
                "and next(require('kesi.review').views) ~= nil"
            ),
            f"review #{number} to open",
        )
        view = self.ed.lua(
            """
            local _, v = next(require('kesi.review').views)
            local function text(b) return vim.api.nvim_buf_get_lines(b, 0, -1, true) end
            return { path = v.path, before = text(v.bufs[1]), after = text(v.bufs[2]),
                     tab = vim.api.nvim_get_current_tabpage() == v.tab }
            """
        )
        return dict(view)

    def wait_select(self, number: int = 1) -> dict[str, Any]:
        """Wait for the `number`-th vim.ui.select; return {prompt, items}."""
        self._while_running(
            lambda: len(self.ed.selects()) >= number, f"prompt #{number} (vim.ui.select)"
        )
        return dict(self.ed.selects()[number - 1])

    def wait_output(self, text: str, timeout: float = 30.0) -> list[str]:
        return list(
            self.ed.wait_until(
                lambda: any(text in line for line in self.ed.output()) and self.ed.output(),
                f"{text!r} in kesi://output",
                timeout,
            )
        )

    def mcp_listing(self, name: str, shows: Callable[[str], bool], timeout: float = 90) -> str:
        """:KeSiMcp again, once its last answer is shown, until what it says of the MCP server
        `name` `shows` what the test waits for (a server starts, or signs in, in the background:
        nothing tells the editor, so it asks again)."""
        header = f"MCP {name}"
        asked = 0

        def listed() -> str | None:
            nonlocal asked
            shown = self.ed.messages()
            if shown.count(header) >= asked:
                self.ed.keys(":KeSiMcp<CR>")
                asked += 1
            last = shown[shown.rfind(header) :]
            return last if last.startswith(header) and shows(last) else None

        return str(self.ed.wait_until(listed, f":KeSiMcp to show the server {name}", timeout))

    def notified(self, text: str, timeout: float = 15.0) -> str:
        """Wait until `text` appears in :messages; return all messages."""
        return str(
            self.ed.wait_until(
                lambda: text in (m := self.ed.messages()) and m, f"{text!r} in :messages", timeout
            )
        )


def start_kesi(
    open_editor: OpenEditor,
    project: Path,
    base_url: str,
    file: str = "calc.py",
    env: dict[str, str] | None = None,
    setup: dict[str, Any] | None = None,
) -> KesiEditor:
    """A Neovim editing `file` of `project`, its kesi-lsp pointed at the scripted API
    (`setup`: the plugin's setup() options, e.g. `{"server": {"locale": "zh-TW"}}`)."""
    full_env = {"ANTHROPIC_BASE_URL": base_url, "ANTHROPIC_API_KEY": FAKE_KEY}
    full_env.update(env or {})
    ed = open_editor(project, env=full_env, setup=setup)
    ed.cmd(f"edit {file}")
    kesi = KesiEditor(ed)
    kesi.wait_client()
    return kesi


def disk(project: Path, rel: str) -> str:
    return (project / rel).read_text(encoding="utf-8")


def tool_result_text(request_body: dict[str, Any]) -> str:
    """The text of the tool_result blocks of a request's last (user) message."""
    last = request_body["messages"][-1]
    parts: list[str] = []
    for block in last["content"] if isinstance(last["content"], list) else []:
        if block.get("type") == "tool_result":
            content = block.get("content")
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts.extend(c.get("text", "") for c in content if isinstance(c, dict))
    return "\n".join(parts)
