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


KESI_CAPABILITY = {
    "stream": True,
    "reviewEdit": True,
    "saveDocuments": True,
    "plan": True,
    "diagnostics": True,
}


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
    assert config["kesi"] == KESI_CAPABILITY
    assert sorted(config["handlers"]) == [
        "kesi/diagnostics",
        "kesi/plan",
        "kesi/reviewEdit",
        "kesi/runFinished",
        "kesi/saveDocuments",
        "kesi/stream",
        "kesi/tasks",
        "kesi/verdict",
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
        "KeSiTasks",
        "KeSiTaskStop",
        "KeSiAudit",
        "KeSiMcpLogin",
        "KeSiMcpLogout",
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
          { runId = 'r1', path = 'pkg/calc.py', before = ..., after = select(2, ...),
            title = '〔title: pkg/calc.py〕', question = '〔question〕',
            actions = { { title = '〔deny〕', decision = 'reject' },
                        { title = '〔once〕', decision = 'accept' },
                        { title = '〔session〕', decision = 'acceptSession' } } },
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
    # The server's title and question, its answers in its order (Deny first) after their keys.
    assert "〔title: pkg/calc.py〕" in after["winbar"]
    assert "〔question〕  gr/q 〔deny〕 · ga 〔once〕 · gA 〔session〕" in after["winbar"]
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


BILL = "（本輪 2 次請求，input 1,200、output 80、快取讀 3,000、快取寫 0，$0.0042；累計 $0.0050）"


def test_output_buffer_shows_the_servers_lines_of_a_run(
    open_editor: OpenEditor, tmp_path: Path
) -> None:
    """Fed the notifications the server sends (design §2.5, §2.13): model text as it streams,
    every other event's lines exactly as the server rendered them, each with its colour."""
    ed = open_editor(tmp_path)
    ed.lua(
        """
        local h = require('kesi.handlers')
        local ctx = { client_id = 7 }
        local function s(p) p.runId = 'run-1'; h.stream(nil, p, ctx) end
        s({ kind = 'turn', turn = 1, maxTurns = 20, line = '', lines = {} })
        s({ kind = 'text', text = 'Let me look at ' })
        s({ kind = 'text', text = 'the test.\\nIt fails.' })
        s({ kind = 'toolStart', tool = 'read_file', input = { file_path = 'calc.py' },
            line = '〔tool read calc.py〕', lines = { '〔tool read calc.py〕' } })
        s({ kind = 'toolEnd', tool = 'read_file', isError = false, summary = 'x',
            line = '〔ok 2 lines〕', lines = { '〔ok 2 lines〕' } })
        s({ kind = 'toolEnd', tool = 'run_command', isError = true, summary = 'exit 1',
            line = '〔error exit 1〕', lines = { '〔error exit 1〕' } })
        s({ kind = 'notice', notice = 'retry', text = 'x', line = '〔retrying〕',
            lines = { '〔retrying〕' } })
        s({ kind = 'notice', notice = 'workspace', text = 'x', line = '〔folder〕',
            lines = { '〔folder〕' } })
        s({ kind = 'edit', tool = 'edit_file', path = 'calc.py', diff = '-a\\n+b',
            line = '〔edited calc.py〕', lines = { '〔edited calc.py〕', '    -a', '    +b' } })
        s({ kind = 'usage', run = { costUsd = 0.0021 }, session = { costUsd = 0.005 },
            line = '', lines = {} })
        _G.status_running = require('kesi.runs').active_run(7) ~= nil
        h.run_finished(nil, { runId = 'run-1', status = 'done', text = 'Fixed.',
          usage = { requests = 2, costUsd = 0.0042 }, statusText = '完成', bill = ...,
          verified = { status = 'verified', text = '已驗證', by = 'pytest', detail = 'ok' },
          lines = { '  [已驗證] ok', '  ' .. ... }, line = '完成 · 已驗證 · ' .. ... }, ctx)
        """,
        BILL,
    )
    lines = ed.output()
    assert lines[0].startswith("── KeSi · ")
    assert lines[1:] == [
        "Let me look at the test.",
        "It fails.",
        "〔tool read calc.py〕",
        "〔ok 2 lines〕",
        "〔error exit 1〕",
        "〔retrying〕",
        "〔folder〕",
        "〔edited calc.py〕",
        "    -a",
        "    +b",
        "  [已驗證] ok",  # the story's close as the server wrote it, its bill in the footer
        f"── 完成 · 已驗證 · {BILL}",
    ]
    groups = dict(ed.output_highlights())
    assert groups["〔tool read calc.py〕"] == "KeSiTool"
    assert groups["〔ok 2 lines〕"] == "KeSiToolOk"
    assert groups["〔error exit 1〕"] == "KeSiToolError"
    assert groups["〔retrying〕"] == "KeSiNotice"
    assert groups["〔folder〕"] == "KeSiStartup"
    assert groups["  [已驗證] ok"] == "KeSiVerified"
    assert groups[lines[-1]] == "KeSiDone"
    assert "Let me look at the test." not in groups, "model text is plain prose"
    assert ed.lua("return _G.status_running") is True
    assert ed.lua("return require('kesi.runs').active_run(7)") is None


PLAN_RUN = """
local h = require('kesi.handlers')
local ctx = { client_id = 7 }
local marks = { completed = '✓', in_progress = '▶', pending = '○' }
local function plan(...)
  local items, lines, done, current = {}, {}, 0, nil
  for i, status in ipairs({ ... }) do
    items[i] = { content = ({ 'Read', 'Fix', 'Test' })[i], status = status }
    lines[i] = ('〔%s %s〕'):format(marks[status], items[i].content)
    done = done + (status == 'completed' and 1 or 0)
    current = current or (status == 'in_progress' and ('〔step %d/3〕'):format(i) or nil)
  end
  h.plan(nil, { runId = 'run-2', items = items, lines = lines, current = current or vim.NIL,
                title = ('〔plan %d/3〕'):format(done) }, ctx)
end
local function turn(n)
  h.stream(nil, { runId = 'run-2', kind = 'turn', turn = n, maxTurns = 20,
                  label = ('〔turn %d〕'):format(n) }, ctx)
end
turn(1)
_G.status_turn = require('kesi').status()
h.stream(nil, { runId = 'run-2', kind = 'turn', turn = 2, maxTurns = 10, depth = 1,
                agent = 'search', parentToolUseId = 's', label = '〔its own turn 2〕',
                nestedLabel = '〔search turn 2〕', line = '', lines = {} }, ctx)
_G.status_search = require('kesi').status()
h.stream(nil, { runId = 'run-2', kind = 'toolEnd', tool = 'search_agent', toolUseId = 's',
                isError = false, summary = 'found', line = '〔found〕',
                lines = { '〔found〕' } }, ctx)
_G.status_searched = require('kesi').status()
h.stream(nil, { runId = 'run-2', kind = 'text', text = 'Planning.' }, ctx)
plan('in_progress', 'pending', 'pending')
turn(2)
plan('completed', 'in_progress', 'pending')
_G.status_while = require('kesi').status()
_G.top_while = vim.api.nvim_buf_get_lines(require('kesi.output').buf(), 0, 5, false)
plan('completed', 'completed', 'completed')
h.run_finished(nil, { runId = 'run-2', status = 'done', text = 'Done.',
  usage = { requests = 3, inputTokens = 10, outputTokens = 5, costUsd = 0.001 },
  verified = { status = 'verified', text = '〔verified〕', by = 'pytest -q', detail = 'x' },
  bill = '〔bill〕', lines = { '〔verified: x〕', '〔bill〕' },
  line = '〔done · verified · bill〕' }, ctx)
"""


def test_the_plan_sits_at_the_top_and_the_verdict_ends_the_run(
    open_editor: OpenEditor, tmp_path: Path
) -> None:
    ed = open_editor(tmp_path)
    ed.lua("vim.lsp.get_clients = function() return { { id = 7, workspace_folders = {} } } end")
    ed.lua(PLAN_RUN)
    top = ed.lua("return _G.top_while")
    assert top == [
        "〔plan 1/3〕 · KeSi",
        "  〔✓ Read〕",
        "  〔▶ Fix〕",
        "  〔○ Test〕",
        "",
    ]  # updated in place: one plan block, however many updates
    # the step in progress, in the server's words; the round trip only until there is one
    assert ed.lua("return _G.status_turn") == "KeSi ● 〔turn 1〕 · $0.0000"
    # a search's own turn beside the run's, in the server's words, until its call ends
    assert ed.lua("return _G.status_search") == "KeSi ● 〔turn 1〕 · 〔search turn 2〕 · $0.0000"
    assert ed.lua("return _G.status_searched") == "KeSi ● 〔turn 1〕 · $0.0000"
    assert ed.lua("return _G.status_while") == "KeSi ● 〔step 2/3〕 · $0.0000"
    lines = ed.output()
    assert lines[0].startswith("── KeSi · "), "the finished run's plan left the top"
    assert lines[-6:] == [
        "〔plan 3/3〕",  # its final state is in the run's story
        "  〔✓ Read〕",
        "  〔✓ Fix〕",
        "  〔✓ Test〕",
        "〔verified: x〕",
        "── 〔done · verified · bill〕",
    ]
    groups = dict(ed.output_highlights())
    assert groups["〔verified: x〕"] == "KeSiVerified"
    assert groups["  〔✓ Test〕"] == "KeSiPlanDone"
    assert ed.lua("return require('kesi').status()") == "KeSi ✓ 〔verified〕 · $0.0010"
    # A new run starts without the old plan at the top.
    ed.lua(
        "require('kesi.plan').show({ items = { { content = 'x', status = 'pending' } },"
        " lines = { '〔x〕' }, title = '〔next plan〕' }, 'next')"
    )
    ed.lua("require('kesi').announce({ title = 'next' })")
    assert not ed.output()[0].startswith("〔next plan〕")


def test_kesi_diagnostics_answers_with_every_sources_problems(
    open_editor: OpenEditor, tmp_path: Path
) -> None:
    (tmp_path / "rates.py").write_text("x = 1\ny = undefined\n", encoding="utf-8")
    ed = open_editor(tmp_path)
    ed.cmd("edit rates.py")
    answer = ed.lua(
        """
        local uri = vim.uri_from_bufnr(0)
        local diag = require('kesi.diagnostics')
        local before = diag.request({ uris = { uri } }, nil).items[1]
        vim.diagnostic.set(vim.api.nvim_create_namespace('pyright'), 0, {
          { lnum = 1, col = 4, end_col = 13, message = '"undefined" is not defined',
            severity = vim.diagnostic.severity.ERROR, source = 'pyright' } })
        local after = diag.request({ uris = { uri, 'file:///nowhere/x.py' } }, nil).items
        return { before = before.changes, after = after }
        """
    )
    assert answer["before"] == 0
    first, missing = answer["after"]
    assert first["changes"] == 1
    assert first["diagnostics"] == [
        {
            "range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 13}},
            "severity": 1,
            "message": '"undefined" is not defined',
            "source": "pyright",
        }
    ]
    assert missing["changes"] == 0 and not missing["diagnostics"]


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


def test_a_run_that_stops_says_why_in_the_servers_words(
    open_editor: OpenEditor, tmp_path: Path
) -> None:
    ed = open_editor(tmp_path)
    ed.lua(
        """
        local h = require('kesi.handlers')
        local ctx = { client_id = 3 }
        h.run_finished(nil, { runId = 'a', status = 'cancelled', text = 'Stopped.',
          lines = { '〔KeSi > Stopped.〕' }, line = '〔cancelled〕', bill = vim.NIL }, ctx)
        h.run_finished(nil, { runId = 'c', status = 'done', text = 'All fixed.', lines = {},
          line = '〔done〕' }, ctx)
        """
    )
    lines = [line for line in ed.output() if not line.startswith("── KeSi · ")]
    assert lines == ["〔KeSi > Stopped.〕", "── 〔cancelled〕", "── 〔done〕"]
    groups = dict(ed.output_highlights())
    assert groups["── 〔cancelled〕"] == "KeSiStopped"


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
    assert client["kesi"] == KESI_CAPABILITY
    assert {"kesi.fixThis", "kesi.ask", "kesi.cancel"} <= set(client["commands"])
    assert ed.lua("return vim.fn.exists(':KeSiFix')") == 2
    assert ed.lua("return require('kesi').status()") == "KeSi $0.0000"


def test_output_indents_a_searchs_text_and_shows_its_lines_as_the_server_placed_them(
    open_editor: OpenEditor, tmp_path: Path
) -> None:
    """A search sub-agent's text under its call; its lines, its sub-total after the call's
    result and a summary's bill line come indented and worded by the server."""
    ed = open_editor(tmp_path)
    ed.lua(
        """
        local h = require('kesi.handlers')
        local ctx = { client_id = 9 }
        local function s(p) p.runId = 'run-s'; h.stream(nil, p, ctx) end
        local function n(p)
          p.parentToolUseId = 'toolu_s'; p.agent = 'search'; p.depth = 1; s(p)
        end
        s({ kind = 'notice', notice = 'resume', text = 'x', lines = { '〔resumed〕' } })
        s({ kind = 'text', text = 'Let me search.' })
        s({ kind = 'toolStart', toolUseId = 'toolu_s', tool = 'search_agent',
            lines = { '〔search〕' } })
        n({ kind = 'text', text = 'Searching.\\nWith grep.' })
        n({ kind = 'toolStart', tool = 'grep', lines = { '    〔grep〕' } })
        n({ kind = 'usage', purpose = 'search', run = { costUsd = 0.005 },
            session = { costUsd = 0.005 }, line = '', lines = {} })
        s({ kind = 'toolEnd', toolUseId = 'toolu_s', tool = 'search_agent', isError = false,
            lines = { '〔found〕', '    〔search bill〕' } })
        s({ kind = 'usage', purpose = 'compaction', run = { costUsd = 0.007 },
            session = { costUsd = 0.007 }, lines = { '〔summary bill〕' } })
        """
    )
    lines = ed.output()
    assert lines[1:] == [
        "〔resumed〕",
        "Let me search.",
        "〔search〕",
        "    Searching.",
        "    With grep.",
        "    〔grep〕",
        "〔found〕",
        "    〔search bill〕",
        "〔summary bill〕",
    ]
    groups = dict(ed.output_highlights())
    assert groups["〔resumed〕"] == "KeSiInfo"
    assert groups["    〔grep〕"] == "KeSiTool"
    assert groups["〔found〕"] == "KeSiToolOk"
    assert groups["    〔search bill〕"] == "KeSiCost"
    assert groups["〔summary bill〕"] == "KeSiCost"
    assert ed.lua("return require('kesi.runs').session_cost(9)") == 0.007
    commands = ed.lua("return vim.tbl_keys(vim.api.nvim_get_commands({}))")
    assert "KeSiCompact" in commands


def test_output_shows_a_calls_input_arriving_in_place_then_the_calls_line(
    open_editor: OpenEditor, tmp_path: Path
) -> None:
    """`toolInput` (issue 31 item 6): each progress line replaces the last, under the model's
    text, and the call's own line replaces the last of them."""
    ed = open_editor(tmp_path)

    def progress(line: str) -> None:
        ed.lua(
            """
            require('kesi.handlers').stream(nil, { runId = 'run-i', kind = 'toolInput',
              toolUseId = 'toolu_w', tool = 'write_file', received = 1, line = ...,
              lines = {} }, { client_id = 9 })
            """,
            line,
        )

    ed.lua(
        """require('kesi.handlers').stream(nil, { runId = 'run-i', kind = 'text',
          text = 'Writing it.' }, { client_id = 9 })"""
    )
    for size in ("1 KB", "4 KB", "12 KB"):
        progress(f"〔write · {size}〕")
        assert ed.output()[1:] == ["Writing it.", f"〔write · {size}〕"]
    ed.lua(
        """require('kesi.handlers').stream(nil, { runId = 'run-i', kind = 'toolStart',
          toolUseId = 'toolu_w', tool = 'write_file', lines = { '〔write〕' } },
          { client_id = 9 })"""
    )
    assert ed.output()[1:] == ["Writing it.", "〔write〕"]
