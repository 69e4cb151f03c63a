"""The ACP adapter's pure pieces: stop reasons, prompt content as the task, tool-call cards,
notices, the meter, clear invalid-params errors; and the settings every front end validates."""

from __future__ import annotations

from pathlib import Path

import pytest
from acp.schema import (
    EmbeddedResourceContentBlock,
    NewSessionRequest,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)
from pydantic import ValidationError

from kesi_lsp.acp.errors import invalid_params
from kesi_lsp.acp.outcome import answer, hint_for, stop_reason
from kesi_lsp.acp.prompt_content import prompt_task
from kesi_lsp.acp.sessions import AcpSessions
from kesi_lsp.acp.tool_calls import locations, title
from kesi_lsp.acp.updates import Paragraphs, notice_chunk, quoted, usage
from kesi_lsp.acp.view import same_text
from kesi_lsp.core import AgentSettings, RunFinished, Usage, UsageReported
from kesi_lsp.core.settings.parse import environment_settings, parse_settings


def finished(status: str, **kw: object) -> RunFinished:
    return RunFinished(status, "stopped", Usage(), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("run", "stop"),
    [
        (finished("done"), "end_turn"),
        (finished("cancelled"), "cancelled"),
        (finished("limit", limit="max_turns"), "max_turn_requests"),
        (finished("limit", limit="max_tokens"), "max_tokens"),
        (finished("limit", limit="context_window"), "max_tokens"),
        (finished("limit", limit="tool_failures"), "end_turn"),
    ],
)
def test_stop_reasons(run: RunFinished, stop: str) -> None:
    assert stop_reason(run) == stop


def test_a_failed_run_is_an_error_with_its_way_on() -> None:
    from kesi_lsp.catalog import text

    unreachable = RunFinished(
        "failed", text("loop.api.connection", "en", detail="refused"), Usage()
    )
    with pytest.raises(Exception) as caught:
        answer(unreachable, "en")
    assert caught.value.data["reason"] == "unreachable"  # type: ignore[attr-defined]
    assert str(caught.value).endswith(hint_for(unreachable, "en") or "")
    assert hint_for(finished("done"), "en") is None


@pytest.fixture
def session(tmp_path: Path):  # type: ignore[no-untyped-def]
    (tmp_path / ".env").write_text("SECRET=1")
    return AcpSessions().new(tmp_path, AgentSettings())


def test_prompt_content_becomes_the_task(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    blocks = [
        TextContentBlock(type="text", text="fix "),
        TextContentBlock(type="text", text="this"),
        EmbeddedResourceContentBlock(
            type="resource",
            resource=TextResourceContents(
                uri=(tmp_path / "calc.py").as_uri() + "#L10:11", text="a\nb\n"
            ),
        ),
        ResourceContentBlock(type="resource_link", uri=(tmp_path / "t.py").as_uri(), name="t.py"),
        ResourceContentBlock(type="resource_link", uri=(tmp_path / ".env").as_uri(), name=".env"),
        ResourceContentBlock(type="resource_link", uri="file:///etc/hosts", name="hosts"),
    ]
    task = prompt_task(session, blocks, "en")
    assert task.startswith("fix this\n\nAttached by the user:")
    assert "calc.py, lines 10-11, as the user's editor has it:\n10 | a\n11 | b" in task
    assert "t.py (read it with read_file when you need it)" in task
    assert ".env (outside the workspace or hidden by the ignore list" in task
    assert "/etc/hosts (outside the workspace" in task


def test_titles_kinds_and_locations(session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert title("grep", {"pattern": "def add", "path": "src"}, "en") == "Search def add in src"
    assert title("run_command", {"command": "a\n b"}, "zh-TW") == "執行 a b"
    assert title("task", {}, "en") == "task"
    where = locations(session, "read_file", {"file_path": "src/a.py"})
    assert [w.path for w in where] == [str(tmp_path / "src" / "a.py")]
    assert locations(session, "read_file", {"file_path": "../../etc/passwd"}) == []
    assert [w.path for w in locations(session, "list_files", {})] == [str(tmp_path)]


def test_notices_are_their_own_quoted_paragraphs() -> None:
    paragraphs = Paragraphs()
    first = notice_chunk("sandbox", "Command sandbox: on", paragraphs)
    assert first.content.text == "> Command sandbox: on\n\n"  # type: ignore[union-attr]
    assert first.field_meta == {"kesi": {"notice": "sandbox"}}
    paragraphs.said("Some words")
    second = notice_chunk("retry", "one\ntwo", paragraphs)
    assert second.content.text == "\n\n> one\n> two\n\n"  # type: ignore[union-attr]
    assert quoted("") == ">"


def test_the_meter_counts_the_context_this_round_filled() -> None:
    request = Usage(
        requests=1, input_tokens=10, output_tokens=5, cache_read_tokens=100, cost_usd=0.5
    )
    meter = usage(UsageReported(request, request, request + request), 200_000, "en")
    assert (meter.used, meter.size) == (115, 200_000)
    assert meter.cost is not None and meter.cost.amount == 1.0
    assert "session total $1.0000" in meter.field_meta["kesi"]["bill"]  # type: ignore[index]


def test_invalid_params_are_said_field_by_field() -> None:
    with pytest.raises(ValidationError) as caught:
        NewSessionRequest.model_validate({"cwd": 3})
    error = invalid_params("session/new", caught.value, "en")
    assert error.code == -32602
    assert str(error).startswith("Invalid params for session/new: cwd: Input should be")
    assert "mcpServers: Field required" in str(error)


def test_same_text_forgives_crlf_only() -> None:
    assert same_text("a\r\nb", "a\nb") and not same_text("a", "b") and same_text(None, None)
    assert not same_text(None, "")


def test_settings_from_the_environment() -> None:
    found = environment_settings(
        {
            "KESI_MAX_TURNS": "30",
            "KESI_COMMAND_TIMEOUT": "2.5",
            "KESI_PROMPT_CACHING": "off",
            "KESI_LOCALE": "zh-TW",
            "KESI_API_KEY": "never-from-here",
            "KESI_SANDBOX": "",
        }
    )
    assert found.values == {
        "maxTurns": 30,
        "commandTimeout": 2.5,
        "promptCaching": False,
        "locale": "zh-TW",
    }
    parsed = parse_settings(found)
    assert parsed.problems == ()
    assert (parsed.settings.max_turns, parsed.settings.prompt_caching) == (30, False)
    (problem,) = parse_settings(environment_settings({"KESI_MAX_TOKENS": "big"})).problems
    assert problem == (
        'KeSi setting KESI_MAX_TOKENS: expected a whole number from 1 to 128000, got "big"; '
        "using 8192."
    )
    later = parse_settings(found, {"maxTurns": 5})  # _meta over the environment
    assert later.settings.max_turns == 5
