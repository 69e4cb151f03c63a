"""The adapter's pure pieces: settings validation, edits as LSP ranges in every position
encoding, the stream and log mapping, progress text, capabilities, the fixThis task."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.workspace import PositionCodec

from kesi_lsp.core import line_span, numbered
from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.events import (
    EditApplied,
    Event,
    Notice,
    RunFinished,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnStarted,
    UsageReported,
)
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.settings.parse import environment_settings, kesi_section, parse_settings
from kesi_lsp.lsp.approver import MAX_DIFF_LINES, truncate_diff
from kesi_lsp.lsp.args import unstructure
from kesi_lsp.lsp.capabilities import ReviewRoute, client_features
from kesi_lsp.lsp.config import CLIENT_KEYS, ConfigStore
from kesi_lsp.lsp.edits import EditPlan, hunks, text_edits, workspace_edit
from kesi_lsp.lsp.progress import ProgressState, end_message, tool_label
from kesi_lsp.lsp.stream import LogStory, bill, stream_event
from kesi_lsp.lsp.tasks import fix_task
from kesi_lsp.testing.vim import VimBuffer
from tests.budget import examples
from tests.lsp.clients import PRESETS, client_capabilities

# -- settings --------------------------------------------------------------------------------


def test_valid_settings_map_onto_agent_settings() -> None:
    parsed = parse_settings(
        {
            "model": "claude-sonnet-4-5",
            "maxTokens": 4096,
            "maxTurns": 7,
            "maxToolFailures": 2,
            "commandTimeout": 30,
            "sandbox": "off",
            "approvals": "acceptEdits",
            "promptCaching": False,
            "contextTrimming": False,
            "contextBudget": 30000,
            "locale": "zh-TW",
            "apiKey": "k",
            "baseUrl": "http://127.0.0.1:1",
        }
    )
    assert parsed.problems == ()
    assert parsed.settings == AgentSettings(
        model="claude-sonnet-4-5",
        max_tokens=4096,
        max_turns=7,
        max_tool_failures=2,
        command_timeout=30.0,
        sandbox="off",
        approvals="acceptEdits",
        prompt_caching=False,
        context_trimming=False,
        context_budget=30000,
        locale="zh-TW",
        api_key="k",
        base_url="http://127.0.0.1:1",
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("maxTurns", 0),
        ("maxTurns", True),
        ("maxTurns", 2.5),
        ("maxTokens", "8k"),
        ("commandTimeout", -1),
        ("commandTimeout", 1e9),
        ("sandbox", "docker"),
        ("approvals", "yolo"),
        ("approvals", "acceptedits"),
        ("approvals", True),
        ("promptCaching", 1),
        ("contextBudget", 10),
        ("locale", "fr"),
        ("model", ""),
        ("baseUrl", "ftp://x"),
        ("passEnv", "GH_TOKEN"),
        ("passEnv", ["GH TOKEN"]),
        ("passEnv", [1]),
    ],
)
def test_bad_values_are_reported_and_defaulted(key: str, value: object) -> None:
    parsed = parse_settings({key: value})
    assert parsed.settings == AgentSettings()
    (problem,) = parsed.problems
    assert problem.startswith(f"KeSi setting kesi.{key}: expected ")


def test_a_bad_approvals_value_says_what_is_allowed_and_keeps_asking() -> None:
    parsed = parse_settings({"approvals": "bypassPermissions"})
    assert parsed.settings.approvals == "ask"
    assert parsed.problems == (
        'KeSi setting kesi.approvals: expected "ask" (show each file edit first) or '
        '"acceptEdits" (apply file edits without asking), got "bypassPermissions"; '
        'using "ask".',
    )
    (zh,) = parse_settings({"locale": "zh-TW", "approvals": "auto"}).problems
    assert zh.startswith("KeSi 設定 kesi.approvals：應該是「ask」")
    assert zh.endswith('先用預設值 "ask"。')


def test_pass_env_is_a_list_of_names_from_json_or_the_environment() -> None:
    assert parse_settings({"passEnv": ["GH_TOKEN", "NPM_TOKEN", "GH_TOKEN"]}).settings.pass_env == (
        "GH_TOKEN",
        "NPM_TOKEN",
    )
    layer = environment_settings({"KESI_PASS_ENV": " GH_TOKEN, NPM_TOKEN "})
    assert parse_settings(layer).settings.pass_env == ("GH_TOKEN", "NPM_TOKEN")
    (problem,) = parse_settings({"passEnv": "GH_TOKEN"}).problems
    assert problem == (
        "KeSi setting kesi.passEnv: expected a list of environment variable names, such as "
        '["GH_TOKEN"], got "GH_TOKEN"; using [].'
    )


def test_later_layers_win_and_null_means_unset() -> None:
    parsed = parse_settings({"maxTurns": 5, "model": "a"}, {"maxTurns": None, "model": "b"})
    assert (parsed.settings.max_turns, parsed.settings.model) == (5, "b")


def test_editor_side_settings_are_accepted_quietly(caplog: pytest.LogCaptureFixture) -> None:
    """VS Code sends its own keys with the section: no problem, no "unknown" log; a typo is
    logged (never shown as an error: other clients may add keys of their own)."""
    caplog.set_level(logging.INFO, logger="kesi_lsp.core.settings.parse")
    raw = {"serverPath": "/x/kesi-lsp", "review": "diff", "trace": {"server": "off"}}
    parsed = parse_settings({**raw, "maxTurn": 3}, quiet=CLIENT_KEYS)
    assert parsed.problems == () and parsed.settings == AgentSettings()
    assert [r.getMessage() for r in caplog.records] == ["ignoring unknown setting kesi.maxTurn"]


def test_problems_speak_the_configured_locale() -> None:
    (problem,) = parse_settings({"locale": "zh-TW", "maxTurns": "x"}).problems
    assert problem.startswith("KeSi 設定 kesi.maxTurns")


def test_section_forms_and_reporting_once() -> None:
    assert kesi_section({"kesi": {"maxTurns": 3}}) == {"maxTurns": 3}
    assert kesi_section({"maxTurns": 3}) == {"maxTurns": 3}
    assert kesi_section({"other": 1}) == {} and kesi_section(None) == {}
    store = ConfigStore(init_options={"maxTurns": "x"})
    parsed = store.settings_for(None)
    assert len(store.new_problems(parsed)) == 1 and store.new_problems(parsed) == []
    store.forget_reported()
    assert len(store.new_problems(store.settings_for(None))) == 1


# -- edits -----------------------------------------------------------------------------------

PIECES = ["a", "é", "😀", "\n", "\r\n", "\r", " ", "\u2028"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@st.composite
def edit_pairs(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> tuple[str, str]:
    """(before, after): any two texts, an append to the end, or a new (empty) file."""
    before, after = draw(texts), draw(texts)
    shape = draw(st.sampled_from(["any", "append", "new file"]))
    if shape == "append":
        return before, before + after
    return ("" if shape == "new file" else before), after


@st.composite
def vim_pairs(draw: st.DrawFn) -> tuple[str, str]:
    """Pairs a Neovim buffer can hold: one line ending throughout, its 'eol' kept."""
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    pieces = st.sampled_from(["a", "é", "😀", " ", "\u2028", ending, ending])
    before, after = draw(edit_pairs(st.lists(pieces, max_size=30).map("".join)))
    buffer = VimBuffer.read(before)
    assume(buffer.ending == ending or ending not in after)  # CR LF needs a CR LF file
    assume(after.endswith(buffer.ending) == buffer.eol and after != "")
    return before, after


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
# The buffer's line ending decides which pairs are possible: filtering them out is the point.
@settings(
    max_examples=examples(100),
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(data=st.data())
def test_text_edits_turn_before_into_after(preset: str, encoding: str, data: st.DataObject) -> None:
    """Every client ends up with exactly `after`, appends to the end and new files included."""
    editor = PRESETS[preset]
    if editor.edit_model == "neovim":
        before, after = data.draw(vim_pairs())
        held = VimBuffer.read(before).text()  # an empty file is one empty line: "\n"
    else:
        before, after = data.draw(edit_pairs(TEXTS))
        held = before
    edits = text_edits(before, after, PositionCodec(encoding=encoding))
    assert editor.apply_edits(held, edits, encoding) == after


def test_hunks_are_line_blocks() -> None:
    before = "one\ntwo\nthree\nfour\n"
    after = "ONE\ntwo\nthree\nFOUR\nfive\n"
    assert [(h.start, h.end, "".join(h.lines)) for h in hunks(before, after)] == [
        (0, 1, "ONE\n"),
        (3, 4, "FOUR\nfive\n"),
    ]


def _plan(**changes: object) -> EditPlan:
    base: dict[str, object] = {"uri": "file:///w/a.py", "before": "x\n", "after": "y\n"}
    base.update(version=4, create=False, label="L")
    base.update(changes)
    return EditPlan(**base)  # type: ignore[arg-type]


def test_workspace_edit_shapes() -> None:
    codec = PositionCodec()
    plain = workspace_edit(_plan(), codec, document_changes=False)
    assert plain.document_changes is None and plain.changes is not None
    assert plain.change_annotations is None
    versioned = workspace_edit(_plan(), codec, document_changes=True)
    (doc_edit,) = versioned.document_changes or []
    assert isinstance(doc_edit, types.TextDocumentEdit) and doc_edit.text_document.version == 4
    annotated = workspace_edit(_plan(annotation="review me"), codec, document_changes=True)
    (note,) = (annotated.change_annotations or {}).values()
    assert note.needs_confirmation and note.label == "L" and note.description == "review me"
    created = workspace_edit(
        _plan(before="", version=None, create=True, annotation="r"), codec, document_changes=True
    )
    create, insert = created.document_changes or []
    assert isinstance(create, types.CreateFile) and create.annotation_id == "kesi.review.1"
    assert isinstance(insert, types.TextDocumentEdit) and insert.text_document.version is None
    assert create.options is not None and create.options.overwrite is False


def test_each_hunk_is_its_own_annotated_change() -> None:
    """In the editor's preview each hunk can be ticked on its own (design §2.9)."""
    before = "a\nb\nc\nd\ne\n"
    plan = _plan(before=before, after="A\nb\nc\nd\nE\n", annotation="review", label="KeSi: x")
    edit = workspace_edit(plan, PositionCodec(), document_changes=True)
    (doc_edit,) = edit.document_changes or []
    assert isinstance(doc_edit, types.TextDocumentEdit)
    ids = [getattr(e, "annotation_id", None) for e in doc_edit.edits]
    assert ids == ["kesi.review.1", "kesi.review.2"]
    labels = {k: a.label for k, a in (edit.change_annotations or {}).items()}
    assert labels == {
        "kesi.review.1": "KeSi: x — change 1 of 2 (line 1)",
        "kesi.review.2": "KeSi: x — change 2 of 2 (line 5)",
    }


# -- stream and log --------------------------------------------------------------------------

USAGE = Usage(requests=1, input_tokens=16227, output_tokens=530, cost_usd=0.0189)


def stream_payload(run_id: str, event: Event) -> dict[str, object] | None:
    """The event's `kesi/stream` JSON but its rendered lines (test_render.py checks those)."""
    value = stream_event(run_id, event, [], "en")
    if value is None:
        return None
    return {k: v for k, v in unstructure(value).items() if k not in ("line", "lines", "detail")}


def test_stream_payloads() -> None:
    assert stream_payload("r", TextDelta("hi")) == {"runId": "r", "kind": "text", "text": "hi"}
    assert stream_payload("r", ToolStarted("t1", "grep", {"pattern": "x"})) == {
        "runId": "r",
        "kind": "toolStart",
        "toolUseId": "t1",
        "tool": "grep",
        "input": {"pattern": "x"},
    }
    end = stream_payload("r", ToolFinished("t1", "grep", True, "no match"))
    assert end == {
        "runId": "r",
        "kind": "toolEnd",
        "toolUseId": "t1",
        "tool": "grep",
        "isError": True,
        "summary": "no match",
    }
    notice = stream_payload("r", Notice("retry", "retrying"))
    assert notice == {"runId": "r", "kind": "notice", "notice": "retry", "text": "retrying"}
    usage = stream_payload("r", UsageReported(USAGE, USAGE, USAGE))
    assert usage is not None and usage["kind"] == "usage"
    assert usage["session"] == {
        "requests": 1,
        "inputTokens": 16227,
        "outputTokens": 530,
        "cacheReadTokens": 0,
        "cacheWriteTokens": 0,
        "costUsd": 0.0189,
        "partial": False,
    }
    assert stream_payload("r", TurnStarted(2, 20)) == {
        "runId": "r",
        "kind": "turn",
        "turn": 2,
        "maxTurns": 20,
        "label": "turn 2 of at most 20",
    }
    edit = stream_payload("r", EditApplied("edit_file", "a.py", "diff"))
    assert edit == {
        "runId": "r",
        "kind": "edit",
        "tool": "edit_file",
        "path": "a.py",
        "diff": "diff",
    }
    assert stream_payload("r", RunFinished("done", "", USAGE)) is None


def test_log_story_gives_whole_lines_in_order() -> None:
    story = LogStory("en")
    assert story.feed(TextDelta("Let me ")) == []
    assert story.feed(TextDelta("look.\nThen")) == ["KeSi > Let me look."]
    assert story.feed(ToolStarted("t", "read_file", {"file_path": "a.py"})) == [
        "Then",
        "  [tool] read_file: a.py",
    ]
    assert story.feed(ToolFinished("t", "read_file", False, "1 line")) == ["    → 1 line"]
    assert story.feed(TextDelta("Done.")) == []
    assert story.feed(RunFinished("done", "Done.", USAGE)) == ["KeSi > Done."]


def test_the_bill_is_the_meters_line_and_only_after_a_request() -> None:
    assert bill(USAGE, USAGE, "zh-TW") == (
        "（本輪 1 次請求，input 16,227、output 530，$0.0189；累計 $0.0189）"
    )
    assert bill(Usage(), USAGE, "zh-TW") is None  # 這一輪有收到 usage 才印


# -- progress, prompts, tasks, capabilities ---------------------------------------------------


def test_progress_text() -> None:
    state = ProgressState("en")
    assert state.message() == "starting"
    state.update(TurnStarted(2, 20))
    state.update(ToolStarted("t", "run_command", {"command": "pytest   -q\n"}))
    state.update(UsageReported(USAGE, USAGE, USAGE))
    assert state.message() == "working · run_command: pytest -q · $0.0189"
    assert tool_label("glob", {}, "en") == "glob"
    assert len(tool_label("run_command", {"command": "x" * 200}, "en")) < 80
    assert end_message("cancelled", 2, 0.5, "en") == "cancelled · files changed: 2 · $0.5000"


def test_long_diffs_are_cut_and_say_so() -> None:
    diff = "\n".join(f"+line {i}" for i in range(100))
    shown = truncate_diff(diff, "en").splitlines()
    assert len(shown) == MAX_DIFF_LINES + 1
    assert shown[-1] == "… 88 more diff lines: the whole diff is in the KeSi log"


def test_fix_task_text() -> None:
    source = "def add(a, b):\n    return a - b\n"
    assert line_span(0, 2, 0) == (0, 1) and line_span(1, 1, 5) == (1, 1)
    excerpt = numbered(source, 0, 1)
    assert excerpt == "1 | def add(a, b):\n2 |     return a - b"
    diagnostic = types.Diagnostic(
        range=types.Range(
            start=types.Position(line=1, character=0), end=types.Position(line=1, character=1)
        ),
        message="bad\n  operator",
        severity=types.DiagnosticSeverity.Error,
        source="ruff",
        code="X1",
    )
    task = fix_task("calc.py", excerpt, (0, 1), [diagnostic], None, "en")
    assert task.splitlines()[0] == "Fix the code in calc.py, lines 1-2, as shown in my editor:"
    assert "- line 2: error [ruff X1] bad operator" in task
    assert task.endswith(
        "Find the cause, fix it with the smallest change that works, and check the fix."
    )
    assert fix_task("calc.py", excerpt, (1, 1), [], " make it add ", "en").endswith(
        "What I want: make it add"
    )
    zh = fix_task("calc.py", excerpt, (0, 1), [diagnostic], None, "zh-TW").splitlines()
    assert zh[0] == "請修正 calc.py 第 1-2 行的程式碼，以下是我編輯器裡看到的內容："
    assert "- 第 2 行：錯誤 [ruff X1] bad operator" in zh  # no English "line 2: error"
    assert zh[-1] == "找出原因，用能解決問題的最小修改修好它，並確認修好了。"


def test_capabilities_decide_the_review_path() -> None:
    vscode = client_features(client_capabilities("visual-studio-code"))
    assert vscode.review_route is ReviewRoute.PREVIEW and vscode.create_files and not vscode.stream
    neovim = client_features(client_capabilities("neovim"))
    # documentChanges via resourceOperations:
    assert neovim.review_route is ReviewRoute.PROMPT and neovim.document_changes
    emacs = client_features(client_capabilities("emacs"))
    assert emacs.review_route is ReviewRoute.PROMPT and not emacs.create_files
    ours = client_capabilities("neovim")
    ours.experimental = {"kesi": {"stream": True, "reviewEdit": True, "saveDocuments": True}}
    kesi = client_features(ours)
    assert kesi.review_route is ReviewRoute.CLIENT and kesi.stream and kesi.save_documents
    assert not kesi.hunks  # it keeps the pending hunks' diagnostics
    assert client_features(PRESETS["vscode+kesi"].capabilities()).hunks  # it draws them itself


def test_the_harness_records_pytest_lsp_specification_warnings() -> None:
    """A progress report for a token the server never created is a spec violation; the test
    client must record it (kesi_client then fails the test), not swallow it."""
    from tests.lsp.clients import new_editor

    editor = new_editor("vscode")
    client = editor.lsp
    client.capabilities = editor.capabilities
    params = types.ProgressParams(token="never-created", value={"kind": "report", "message": "x"})
    client.protocol._handle_notification(types.PROGRESS, params)
    assert any("Unknown progress token" in problem for problem in editor.problems)


def test_every_agent_setting_has_a_rule() -> None:
    """A new AgentSettings field must be reachable from the editor's settings."""
    from dataclasses import fields

    from kesi_lsp.core.settings.parse import PERMISSIONS_KEY, RULES

    reachable = {rule.attr for rule in RULES} | {PERMISSIONS_KEY}  # the rules' own parser
    reachable.add("mcp_servers")  # mcpServers, with its own parser (settings.mcp_servers)
    reachable.add("editor")  # the front end's (which editor it serves), never the user's
    assert reachable == {f.name for f in fields(AgentSettings)}
