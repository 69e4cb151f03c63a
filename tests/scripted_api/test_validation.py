"""The scripted server refuses a malformed request the way the real API does (and records it)."""

from __future__ import annotations

import copy
from typing import Any

import anthropic
import pytest

from kesi_lsp.scripted_api import reply, script, tool_use, validate_request
from tests.plugins.scripted_api import StartServer

TOOL = {
    "name": "read_file",
    "description": "Read a file.",
    "strict": True,
    "input_schema": {
        "type": "object",
        "properties": {"file_path": {"type": "string"}},
        "required": ["file_path"],
        "additionalProperties": False,
    },
}
USE = {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"file_path": "a"}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "text", "is_error": False}
HEADERS = {"x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01"}


def body(*messages: dict[str, Any], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "model": "claude-haiku-4-5",
        "max_tokens": 100,
        "messages": list(messages),
        "tools": [TOOL],
    }
    out.update(extra)
    return out


def user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content}


def assistant(content: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": content}


GOOD = body(user("read a"), assistant([{"type": "text", "text": "ok"}, USE]), user([RESULT]))


def test_a_well_formed_tool_round_trip_is_valid() -> None:
    assert validate_request(GOOD, HEADERS) == []


def cc() -> dict[str, str]:
    return {"type": "ephemeral"}


def many_breakpoints() -> dict[str, Any]:
    tool = {**TOOL, "cache_control": cc()}
    system = [{"type": "text", "text": f"rule {i}", "cache_control": cc()} for i in range(4)]
    return body(user("hi"), tools=[tool], system=system)


BAD: dict[str, tuple[dict[str, Any], str]] = {
    "repeated user role": (body(user("a"), user("b")), "roles must alternate"),
    "repeated assistant role": (
        body(user("a"), assistant("b"), assistant("c"), user("d")),
        "roles must alternate",
    ),
    "assistant first": (body(assistant("a"), user("b")), 'first message must use the "user"'),
    "no messages": (body(), "at least one message"),
    "empty string content": (body(user("")), "non-empty content"),
    "empty block list": (body(user([])), "non-empty content"),
    "empty text block": (body(user([{"type": "text", "text": ""}])), "must be non-empty"),
    "whitespace text block": (
        body(user([{"type": "text", "text": "  \n"}])),
        "non-whitespace text",
    ),
    "tool_use without result": (
        body(user("a"), assistant([USE]), user("next question")),
        "without `tool_result` blocks immediately after: toolu_1",
    ),
    "tool_use dangling at the end": (
        body(user("a"), assistant([USE])),
        "without `tool_result` blocks immediately after",
    ),
    "result for an unknown id": (
        body(user("a"), assistant([USE]), user([RESULT, {**RESULT, "tool_use_id": "toolu_x"}])),
        "unexpected `tool_use_id` found in `tool_result` blocks: toolu_x",
    ),
    "result not first": (
        body(user("a"), assistant([USE]), user([{"type": "text", "text": "here"}, RESULT])),
        "must come first",
    ),
    "duplicate tool_use id": (
        body(
            user("a"),
            assistant([USE]),
            user([RESULT]),
            assistant([USE]),
            user([RESULT]),
        ),
        "ids must be unique",
    ),
    "tool blocks without tools": (
        {k: v for k, v in GOOD.items() if k != "tools"},
        "must define tools",
    ),
    "tools not a list": (body(user("a"), tools=True), "tools: Input should be a list"),
    "duplicate tool names": (body(user("a"), tools=[TOOL, TOOL]), "Tool names must be unique"),
    "bad tool name": (body(user("a"), tools=[{**TOOL, "name": "read file"}]), "should match"),
    "schema not an object": (
        body(user("a"), tools=[{**TOOL, "input_schema": {"type": "string"}}]),
        "Input should be 'object'",
    ),
    "schema requires an unknown property": (
        body(
            user("a"),
            tools=[
                {
                    **TOOL,
                    "input_schema": {**TOOL["input_schema"], "required": ["path"]},  # type: ignore[dict-item]
                }
            ],
        ),
        "unknown ['path']",
    ),
    "strict without additionalProperties": (
        body(
            user("a"),
            tools=[
                {
                    **TOOL,
                    "input_schema": {
                        k: v
                        for k, v in TOOL["input_schema"].items()  # type: ignore[attr-defined]
                        if k != "additionalProperties"
                    },
                }
            ],
        ),
        "additionalProperties",
    ),
    "five cache breakpoints": (many_breakpoints(), "A maximum of 4 blocks with cache_control"),
    "bad cache_control": (
        body(user([{"type": "text", "text": "a", "cache_control": {"type": "forever"}}])),
        "cache_control must be",
    ),
    "missing max_tokens": ({**body(user("a")), "max_tokens": None}, "max_tokens"),
    "unknown top-level field": (body(user("a"), temprature=1), "Extra inputs are not permitted"),
    "trailing whitespace in a final assistant prefill": (
        body(user("a"), assistant("Sure, ")),
        "trailing whitespace",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_each_malformed_request_is_named(case: str) -> None:
    request, expected = BAD[case]
    problems = validate_request(copy.deepcopy(request), HEADERS)
    assert any(expected in p for p in problems), problems


def test_missing_credentials_and_version_headers_are_refused() -> None:
    problems = validate_request(GOOD, {})
    assert any("x-api-key" in p for p in problems)
    assert any("anthropic-version" in p for p in problems)


def test_invalid_request_gets_a_400_and_is_recorded_without_consuming_a_step(
    scripted_api: StartServer,
) -> None:
    server = scripted_api(script(reply("the one reply")))
    server.allow_problems()
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.base_url)
    with pytest.raises(anthropic.BadRequestError, match="roles must alternate"):
        client.messages.create(
            model="claude-haiku-4-5",
            max_tokens=10,
            messages=[{"role": "user", "content": "a"}, {"role": "user", "content": "b"}],
        )
    assert len(server.problems) == 1 and "roles must alternate" in server.problems[0]
    ok = client.messages.create(
        model="claude-haiku-4-5", max_tokens=10, messages=[{"role": "user", "content": "a"}]
    )
    assert ok.content[0].text == "the one reply"  # type: ignore[union-attr]


def test_running_out_of_script_is_a_clear_recorded_error(scripted_api: StartServer) -> None:
    server = scripted_api(script(reply("only one")))
    server.allow_problems()
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.base_url)
    for _ in range(2):
        last = None
        try:
            last = client.messages.create(
                model="claude-haiku-4-5", max_tokens=10, messages=[{"role": "user", "content": "a"}]
            )
        except anthropic.BadRequestError as exc:
            assert "no reply left for request #2" in str(exc)
    assert last is None
    assert server.problems == [
        "request #2: scripted API: the script has no reply left for request #2 (it has 1 step(s))"
    ]


def test_an_unmet_expectation_is_reported_to_client_and_test(scripted_api: StartServer) -> None:
    steps = script(
        reply(tool_use("read_file", {"file_path": "a"})),
        reply("done", expect={"last_tool_result_contains": "passed"}, label="after tests"),
    )
    server = scripted_api(steps)
    server.allow_problems()
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.base_url)
    first = client.messages.create(
        model="m",
        max_tokens=10,
        tools=[TOOL],
        messages=[{"role": "user", "content": "go"}],  # type: ignore[list-item]
    )
    use = first.content[0]
    with pytest.raises(anthropic.BadRequestError, match="after tests"):
        client.messages.create(
            model="m",
            max_tokens=10,
            tools=[TOOL],  # type: ignore[list-item]
            messages=[
                {"role": "user", "content": "go"},
                {"role": "assistant", "content": [use.model_dump(exclude_none=True)]},  # type: ignore[typeddict-item]
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": use.id, "content": "1 failed"}
                    ],  # type: ignore[union-attr]
                },
            ],
        )
    assert "expected the last tool_result to contain 'passed'" in server.problems[0]
