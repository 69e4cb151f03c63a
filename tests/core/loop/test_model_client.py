"""The model client: the only door to the API, configured from settings and the host's
environment mapping, never from the process environment."""

from __future__ import annotations

import pytest

from kesi_lsp.core.errors import MissingApiKeyError
from kesi_lsp.core.model.anthropic import DEFAULT_BASE_URL, ModelClient, will_retry
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.scripted_api import reply, script
from tests.core.loop.conftest import MakeAgent


@pytest.mark.parametrize("environ", [{}, {"ANTHROPIC_API_KEY": ""}, {"ANTHROPIC_API_KEY": "  "}])
def test_no_key_is_a_clear_error(environ: dict[str, str]) -> None:
    with pytest.raises(MissingApiKeyError, match="ANTHROPIC_API_KEY"):
        ModelClient(AgentSettings(), environ)
    with pytest.raises(MissingApiKeyError, match="ANTHROPIC_API_KEY"):
        ModelClient(AgentSettings(locale="zh-TW"), environ)


def test_the_process_environment_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-the-process")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
    with pytest.raises(MissingApiKeyError):
        ModelClient(AgentSettings(), {})
    client = ModelClient(AgentSettings(), {"ANTHROPIC_API_KEY": "sk-ant-given"})
    assert client.base_url == DEFAULT_BASE_URL


async def test_settings_override_the_environment(make_agent: MakeAgent) -> None:
    agent = make_agent(script(reply("好了。")))
    settings = AgentSettings(api_key="sk-ant-settings", base_url=agent.server.base_url)
    environ = {"ANTHROPIC_API_KEY": "sk-ant-env", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}
    model = ModelClient(settings, environ)
    try:
        async with model.stream(
            {
                "model": "claude-haiku-4-5",
                "max_tokens": 10,
                "messages": [{"role": "user", "content": "hi"}],
            },
            on_notice=lambda n: None,
            locale="en",
        ) as stream:
            message = await stream.get_final_message()
    finally:
        await model.aclose()
    assert message.content[0].type == "text"
    headers = agent.server.requests[0].headers
    sent_key = headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")
    assert sent_key == "sk-ant-settings"


def test_retry_policy_mirrors_the_sdk() -> None:
    assert will_retry(429, {}) and will_retry(529, {}) and will_retry(500, {})
    assert will_retry(408, {}) and will_retry(409, {})
    assert not will_retry(400, {}) and not will_retry(401, {})
    assert will_retry(400, {"x-should-retry": "true"})
    assert not will_retry(503, {"x-should-retry": "false"})


def test_build_model_is_the_hosts_entry_point() -> None:
    from kesi_lsp.core.model.anthropic import build_model

    model = build_model(AgentSettings(), {"ANTHROPIC_API_KEY": "sk-ant-x"})
    assert isinstance(model, ModelClient) and model.max_retries == 2
    with pytest.raises(MissingApiKeyError):
        build_model(AgentSettings(), {})
