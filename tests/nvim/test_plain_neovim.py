"""Plain Neovim 0.11, without KeSi's plugin: the README's `vim.lsp.config` block and nothing else.

What the README promises there: `gra` offers **KeSi: fix this**, the edit's review is asked
with `vim.ui.select` (the diff in its prompt), the fix lands on disk, Neovim reloads the buffer
('autoread', checked by the README's `checktime` autocmd once the user moves on) with no
question and no modified buffer left behind, and the run's end is one line in the message area
(issue 30).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.harness import Editor
from tests.nvim.kesi_session import FAKE_KEY, KesiEditor, disk
from tests.nvim.project import CALC_BUGGY, CALC_FIXED, FAULTY_LINE, failing_project

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

READ = tool_use("read_file", {"file_path": "calc.py"})
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)


def choose(ed: Editor, number: int, item: str) -> list[str]:
    """Wait for the `number`-th `vim.ui.select`, pick `item` by typing its number; its items."""
    ed.wait_until(lambda: len(ed.selects()) >= number, f"select #{number}")
    items: list[str] = ed.selects()[number - 1]["items"]
    ed.keys(f"{items.index(item) + 1}<CR>")
    return items


def modified_buffers(ed: Editor) -> list[str]:
    return list(
        ed.lua(
            "local out = {} for _, b in ipairs(vim.api.nvim_list_bufs()) do "
            "if vim.bo[b].modified then table.insert(out, vim.api.nvim_buf_get_name(b)) end "
            "end return out"
        )
    )


def test_plain_neovim_fix_lands_with_no_modified_buffer_and_the_end_on_screen(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    (project / ".git").mkdir()  # the README's root marker
    api = scripted_api(script(reply("Reading.", READ), reply("Fixing.", EDIT), reply("Fixed.")))
    ed = open_editor(
        project,
        env={
            "KESI_NVIM_PLAIN": "1",
            "ANTHROPIC_BASE_URL": api.base_url,
            "ANTHROPIC_API_KEY": FAKE_KEY,
        },
    )
    ed.cmd("edit calc.py")
    KesiEditor(ed).wait_client()
    assert ed.lua("return package.loaded['kesi'] == nil"), "the plugin is not loaded"

    ed.keys(f"{FAULTY_LINE}Ggra")
    choose(ed, 1, "KeSi: fix this")
    # KeSi's review: window/showMessageRequest, which Neovim asks with vim.ui.select.
    review = ed.selects()
    ed.wait_until(lambda: len(ed.selects()) >= 2, "the edit's review")
    prompt = ed.selects()[1]["prompt"]
    assert "calc.py" in prompt and "+    return a + b" in prompt, (prompt, review)
    assert ed.selects()[1]["items"] == ["Deny", "Allow once", "Allow for this session"]
    assert ed.lines(ed.file_buffer("calc.py")) == CALC_BUGGY.splitlines(), "nothing yet"
    choose(ed, 2, "Allow once")

    ed.wait_until(lambda: disk(project, "calc.py") == CALC_FIXED, "the fix on disk", 30)
    # The end of the run, on screen: one line in the message area.
    ed.wait_until(
        lambda: any("KeSi: done · " in m for m in ed.messages().splitlines()),
        "the run's end line in the message area",
        30,
    )
    # Neovim reloads the clean buffer when it checks the file: the README's autocmd does at
    # CursorHold, 'updatetime' after the user's next key.
    buffer = ed.file_buffer("calc.py")
    ed.keys("k")
    ed.wait_until(lambda: ed.lines(buffer) == CALC_FIXED.splitlines(), "the reloaded buffer", 30)
    assert modified_buffers(ed) == []
    assert "W12" not in ed.messages() and "W11" not in ed.messages(), ed.messages()
    assert len(api.requests) == 3
