"""The plugin on its own in a real Neovim: config, commands, the review view, the output buffer.

These need no server; the end-to-end tests (test_e2e_*.py) run the same code against kesi-lsp.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.nvim.conftest import OpenEditor, require_nvim
from tests.nvim.harness import Editor

pytestmark = pytest.mark.editor


def test_lsp_config_announces_kesi_and_commands_exist(
    open_editor: OpenEditor, tmp_path: Path
) -> None:
    ed = open_editor(tmp_path)
    config = ed.lua(
        "local c = vim.lsp.config.kesi "
        "return { cmd = c.cmd, markers = c.root_markers, kesi = c.capabilities.experimental.kesi, "
        "handlers = vim.tbl_keys(c.handlers), enabled = vim.lsp.is_enabled('kesi') }"
    )
    assert config["cmd"] == ["kesi-lsp"]
    assert ".git" in config["markers"] and "pyproject.toml" in config["markers"]
    assert config["kesi"] == {"stream": True, "reviewEdit": True, "saveDocuments": True}
    assert sorted(config["handlers"]) == [
        "kesi/reviewEdit",
        "kesi/runFinished",
        "kesi/saveDocuments",
        "kesi/stream",
        "textDocument/publishDiagnostics",  # Neovim's own, plus signs and lenses of changes
    ]
    assert config["enabled"] is True
    commands = ed.lua("return vim.tbl_keys(vim.api.nvim_get_commands({}))")
    for name in (
        "KeSiFix",
        "KeSiAsk",
        "KeSiCancel",
        "KeSiReset",
        "KeSiCost",
        "KeSiPermissions",
        "KeSiRevoke",
        "KeSiOutput",
        "KeSiChanges",
        "KeSiKeep",
        "KeSiUndo",
        "KeSiUndoRun",
    ):
        assert name in commands
    # No server serves this buffer: the statusline helper is silent and commands say why.
    assert ed.lua("return require('kesi').status()") == ""
    ed.keys(":KeSiCost<CR>")
    ed.wait_until(lambda: "no kesi-lsp server for this buffer" in ed.messages(), "the error")


def open_review(ed: Editor, before: str, after: str) -> None:
    ed.cmd("edit notes.txt")
    ed.lua(
        """
        _G.decision = nil
        require('kesi.review').open(
          { runId = 'r1', path = 'pkg/calc.py', before = ..., after = select(2, ...) },
          function(d) _G.decision = d end)
        """,
        before,
        after,
    )


BEFORE = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"
AFTER = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def test_review_shows_a_diff_of_before_and_after(open_editor: OpenEditor, tmp_path: Path) -> None:
    ed = open_editor(tmp_path)
    open_review(ed, BEFORE, AFTER)
    view = ed.lua(
        """
        local wins = vim.api.nvim_tabpage_list_wins(0)
        local out = { tabs = #vim.api.nvim_list_tabpages(), wins = {} }
        for _, w in ipairs(wins) do
          local b = vim.api.nvim_win_get_buf(w)
          table.insert(out.wins, {
            name = vim.api.nvim_buf_get_name(b),
            lines = vim.api.nvim_buf_get_lines(b, 0, -1, true),
            diff = vim.wo[w].diff,
            ft = vim.bo[b].filetype,
            modifiable = vim.bo[b].modifiable,
            winbar = vim.wo[w].winbar,
          })
        end
        out.cursor = vim.api.nvim_win_get_cursor(0)
        return out
        """
    )
    assert view["tabs"] == 2
    before, after = view["wins"]
    assert before["lines"] == BEFORE.splitlines()
    assert after["lines"] == AFTER.splitlines()
    assert before["diff"] and after["diff"]
    assert before["ft"] == after["ft"] == "python"
    assert not before["modifiable"] and not after["modifiable"]
    assert "pkg/calc.py" in after["winbar"] and "ga accept" in after["winbar"]
    assert view["cursor"][0] == 2, "the cursor starts on the first change"


@pytest.mark.parametrize(
    ("keys", "decision"),
    [
        ("ga", "accept"),
        ("gA", "acceptSession"),
        ("gr", "reject"),
        ("q", "reject"),
        (":q<CR>", "reject"),
        (":tabclose<CR>", "reject"),
        ("<C-w>h:bwipeout<CR>", "reject"),
    ],
)
def test_review_answers_through_its_mappings_and_closing_is_a_reject(
    open_editor: OpenEditor, tmp_path: Path, keys: str, decision: str
) -> None:
    ed = open_editor(tmp_path)
    open_review(ed, BEFORE, AFTER)
    origin_name = str(tmp_path / "notes.txt")
    ed.keys(keys)
    assert ed.wait("_G.decision", f"a decision after typing {keys}") == decision
    # The view is gone and the user is back where they were.
    state = ed.wait(
        "#vim.api.nvim_list_tabpages() == 1 and {"
        " buf = vim.api.nvim_buf_get_name(0),"
        " review_bufs = #vim.tbl_filter(function(b)"
        "   return vim.api.nvim_buf_get_name(b):find('kesi://review') end,"
        "   vim.api.nvim_list_bufs()) }",
        "the review tab to close",
    )
    assert state["buf"] == origin_name
    assert state["review_bufs"] == 0
    # A second answer (e.g. closing after deciding) changes nothing.
    ed.lua("_G.decision = nil")
    ed.keys("ga")
    assert ed.lua("return _G.decision") is None


def test_output_buffer_renders_a_run(open_editor: OpenEditor, tmp_path: Path) -> None:
    """The renderer, fed the notifications the server sends (design.md §2.5)."""
    ed = open_editor(tmp_path)
    ed.lua(
        """
        local h = require('kesi.handlers')
        local ctx = { client_id = 7 }
        local function s(p) p.runId = 'run-1'; h.stream(nil, p, ctx) end
        s({ kind = 'turn', turn = 1, maxTurns = 20 })
        s({ kind = 'text', text = 'Let me look at ' })
        s({ kind = 'text', text = 'the test.\\nIt fails.' })
        s({ kind = 'toolStart', tool = 'read_file', input = { file_path = 'calc.py' } })
        s({ kind = 'toolEnd', tool = 'read_file', isError = false,
            summary = 'read calc.py (2 lines)' })
        s({ kind = 'toolStart', tool = 'run_command', input = { command = 'pytest -q' } })
        s({ kind = 'toolEnd', tool = 'run_command', isError = true, summary = 'exit 1' })
        s({ kind = 'notice', notice = 'retry', text = 'rate limited, retrying in 1 s' })
        s({ kind = 'edit', tool = 'edit_file', path = 'calc.py', diff = '' })
        s({ kind = 'usage', run = { costUsd = 0.0021 }, session = { costUsd = 0.005 } })
        _G.status_running = require('kesi.runs').active_run(7) ~= nil
        h.run_finished(nil, { runId = 'run-1', status = 'done', text = 'Fixed.',
          usage = { requests = 2, inputTokens = 1200, outputTokens = 80, cacheReadTokens = 3000,
                  cacheWriteTokens = 0, costUsd = 0.0042 } }, ctx)
        """
    )
    lines = ed.output()
    assert lines[0].startswith("── KeSi · ")
    assert lines[1:3] == ["Let me look at the test.", "It fails."]
    assert lines[3] == "▸ read_file calc.py"
    assert lines[4] == "  ✓ read calc.py (2 lines)"
    assert lines[5] == "▸ run_command pytest -q"
    assert lines[6] == "  ✗ exit 1"
    assert lines[7] == "! rate limited, retrying in 1 s"
    assert lines[8] == "✎ edit_file calc.py"
    assert lines[9] == (
        "── done · 2 requests · 1200 in / 80 out tokens (3000 cache read) · cost $0.0042"
    )
    groups = dict(ed.output_highlights())
    assert groups["▸ read_file calc.py"] == "KeSiTool"
    assert groups["  ✗ exit 1"] == "KeSiToolError"
    assert groups["! rate limited, retrying in 1 s"] == "KeSiNotice"
    assert groups[lines[9]] == "KeSiDone"
    assert "Let me look at the test." not in groups, "model text is plain prose"
    assert ed.lua("return _G.status_running") is True
    assert ed.lua("return require('kesi.runs').active_run(7)") is None


def test_help_opens_and_every_link_resolves(open_editor: OpenEditor, tmp_path: Path) -> None:
    """`:help kesi` works once the doc folder is indexed, and no |link| in it dangles."""
    docs = tmp_path / "rtp" / "doc"
    docs.mkdir(parents=True)
    source = Path(__file__).resolve().parents[2] / "editors" / "nvim" / "doc" / "kesi.txt"
    (docs / "kesi.txt").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    ed = open_editor(tmp_path)
    ed.cmd(f"set rtp+={docs.parent}")
    ed.cmd(f"helptags {docs}")
    ed.cmd("help kesi")
    assert ed.lua("return vim.fn.expand('%:t')") == "kesi.txt"
    links = set(re.findall(r"\|([^|\s]+)\|", source.read_text(encoding="utf-8")))
    assert {":KeSiFix", "kesi-review", "kesi-options"} <= links
    dangling = ed.lua(
        "local bad = {} for _, t in ipairs(...) do "
        "if #vim.fn.taglist('^' .. vim.fn.escape(t, '\\\\^$.*[]~') .. '$') == 0 then "
        "table.insert(bad, t) end end return bad",
        sorted(links),
    )
    assert dangling == []


def test_checkhealth_finds_the_server(open_editor: OpenEditor, tmp_path: Path) -> None:
    ed = open_editor(tmp_path, env={"ANTHROPIC_API_KEY": ""})
    ed.cmd("checkhealth kesi")
    report = "\n".join(ed.lines())
    assert "OK Neovim 0.11" in report
    assert "kesi-lsp: kesi-lsp " in report, report
    assert "OK vim.lsp.enable('kesi') is on" in report
    assert "WARNING ANTHROPIC_API_KEY is not set" in report


def test_a_run_that_stops_says_why_once(open_editor: OpenEditor, tmp_path: Path) -> None:
    ed = open_editor(tmp_path)
    ed.lua(
        """
        local h = require('kesi.handlers')
        local ctx = { client_id = 3 }
        h.stream(nil, { runId = 'a', kind = 'notice', text = 'Stopped.' }, ctx)
        h.run_finished(nil, { runId = 'a', status = 'cancelled', text = 'Stopped.' }, ctx)
        h.run_finished(nil, { runId = 'b', status = 'failed', text = 'Set the key.' }, ctx)
        h.run_finished(nil, { runId = 'c', status = 'done', text = 'All fixed.' }, ctx)
        """
    )
    lines = [line for line in ed.output() if not line.startswith("── KeSi · ")]
    assert lines == [
        "! Stopped.",
        "── cancelled · cost $0.0000",
        "! Set the key.",
        "── failed · cost $0.0000",
        "── done · cost $0.0000",
    ]


def test_a_missing_nvim_fails_in_ci_and_skips_elsewhere() -> None:
    assert require_nvim("/x/nvim", {"KESI_CI": "1"}) == "/x/nvim"
    with pytest.raises(pytest.fail.Exception, match="nvim not found"):
        require_nvim(None, {"KESI_CI": "1"})
    with pytest.raises(pytest.skip.Exception, match="nvim not found"):
        require_nvim(None, {})


def test_vim_lsp_enable_alone_starts_kesi_with_its_capability(
    open_editor: OpenEditor, tmp_path: Path
) -> None:
    """No setup() call: plugin/kesi.lua defines the commands, lsp/kesi.lua the server."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "p"\n', encoding="utf-8")
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    ed = open_editor(project, env={"KESI_NVIM_ENABLE_ONLY": "1", "ANTHROPIC_API_KEY": ""})
    ed.cmd("edit a.py")
    client = ed.wait(
        "(function() local c = vim.lsp.get_clients({ name = 'kesi', bufnr = 0 })[1] "
        "return c and c.initialized and { root = c.root_dir,"
        " kesi = c.capabilities.experimental.kesi,"
        " commands = c.server_capabilities.executeCommandProvider.commands } end)()",
        "kesi-lsp to attach",
    )
    assert client["root"] == str(project)
    assert client["kesi"] == {"stream": True, "reviewEdit": True, "saveDocuments": True}
    assert {"kesi.fixThis", "kesi.ask", "kesi.cancel"} <= set(client["commands"])
    assert ed.lua("return vim.fn.exists(':KeSiFix')") == 2
    assert ed.lua("return require('kesi').status()") == "KeSi $0.0000"
