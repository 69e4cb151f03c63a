"""Scripts are data: JSON round-trips, mistakes are named, and the CLI serves a file."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import anthropic
import pytest

from kesi_lsp.scripted_api import (
    ScriptError,
    error_event_after,
    http_error,
    parse_script,
    reply,
    reset_after,
    script,
    stall_after,
    tool_use,
)

FULL = script(
    reply("Let me look.", tool_use("read_file", {"file_path": "a.py"}), label="look"),
    http_error(429, retry_after=1),
    http_error(400, headers={"x-should-retry": "true"}),
    reset_after(5, "partial"),
    stall_after(3, "slow", seconds=2, before_headers=True),
    error_event_after(4, "oops", error_type="overloaded_error", message="Overloaded"),
    reply("cut", stop_reason="max_tokens", usage={"input_tokens": 100, "output_tokens": 20}),
    reply("end", expect={"last_tool_result_contains": "passed"}, forever=True),
    min_cache_tokens=10,
)


def test_json_round_trip_keeps_every_field() -> None:
    assert parse_script(json.loads(FULL.dumps())) == FULL


def test_a_bare_list_is_a_list_of_steps() -> None:
    parsed = parse_script([{"content": [{"type": "text", "text": "hi"}]}])
    assert parsed == script(reply("hi"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"steps": [{}]}, "needs `content`"),
        ({"steps": [{"content": [{"type": "image"}]}]}, "must be 'text' or 'tool_use'"),
        ({"steps": [{"content": [], "fault": {"kind": "explode"}}]}, "fault.kind"),
        (
            {"steps": [{"content": [{"type": "text", "text": "a"}], "stop_reason": "x"}]},
            "stop_reason",
        ),
        ({"steps": [{"content": [{"type": "text", "text": "a"}], "colour": 1}]}, "unknown field"),
        ({"steps": [{"fault": {"kind": "http_error", "status": 200}}]}, "status"),
        (
            {
                "steps": [
                    {"content": [{"type": "text", "text": "a"}], "forever": True},
                    {"fault": {"kind": "reset"}},
                ]
            },
            "only the last step",
        ),
        ({"steps": [{"fault": {"kind": "reset"}, "expect": {"nope": 1}}]}, "unknown field"),
    ],
)
def test_script_mistakes_are_named(data: object, message: str) -> None:
    with pytest.raises(ScriptError, match=message):
        parse_script(data)


@pytest.mark.subprocess
def test_cli_prints_its_url_and_serves_the_script(tmp_path: Path) -> None:
    path = tmp_path / "script.json"
    path.write_text(script(reply("from a file")).dumps(), encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kesi_lsp.scripted_api", "--script", str(path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        base_url = proc.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:")
        client = anthropic.Anthropic(api_key="sk-ant-test", base_url=base_url)
        message = client.messages.create(
            model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}]
        )
        assert message.content[0].text == "from a file"  # type: ignore[union-attr]
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err


@pytest.mark.subprocess
def test_cli_refuses_a_broken_script(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"steps": [{}]}', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "kesi_lsp.scripted_api", "--script", str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2
    assert "needs `content`" in done.stderr
