"""Credential variables are withheld by pattern (issue 29), and the toolchain's stay.

The names are the issue's probe (variables a short list missed) and the patterns' neighbours
that must not be caught: a sandbox that drops `LD_LIBRARY_PATH`, `GIT_AUTHOR_NAME` or
`PYENV_VERSION` breaks the user's toolchain. The end-to-end half runs `env` inside the real
bubblewrap sandbox through run_command, as the model would.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path

import pytest

from kesi_lsp.core.prompt import PromptEnvironment, environment_block
from kesi_lsp.core.sandbox.env import (
    is_sensitive,
    passed_variables,
    scrub_environment,
    withheld_names,
)
from kesi_lsp.core.sandbox.selection import SandboxState
from tests.core.sandbox.agents import agent
from tests.core.sandbox.conftest import Playground, bubblewrap

PROBE = {
    "NPM_CONFIG__AUTH": "dXNlcjpwYXNzd29yZA==",
    "NPM_CONFIG__AUTHTOKEN": "npm-authtoken-value-1",
    "npm_config__authToken": "npm-authtoken-value-2",
    "OPENAI_KEY": "openai-key-value-0001",
    "GH_PAT": "gh-pat-value-000000001",
    "PGPASSWORD": "pg-password-value-01",
    "MYSQL_PWD": "mysql-pwd-value-0001",
    "JWT_SECRET_KEY": "jwt-secret-value-001",
    "SECRET_KEY_BASE": "secret-key-base-0001",
    "PRIVATE_KEY": "private-key-value-01",
    "BW_SESSION": "bw-session-value-001",
    "OP_SESSION_my_team": "op-session-value-001",
    "SENTRY_DSN": "https://abc123@o1.ingest.sentry.io/42",
    "MONGODB_URI": "mongodb+srv://app:hunter2hunter2@cluster0.example.net/db",
    "STRIPE_SK": "stripe-sk-value-00001",
    "SENDGRID_APIKEY": "sendgrid-apikey-value",
    "AWS_ACCESS_KEY_ID": "aws-access-key-value",
    "HTTPS_PROXY": "http://me:proxy-pass-1@proxy.example:3128",
    "CI_REGISTRY_URL": "https://ci:registry-pass-1@registry.example",
    "WEBHOOK_URL": "https://hooks.example/x?token=webhook-token-1",
    "ANTHROPIC_AUTH_TOKEN": "anthropic-auth-token-1",
    "GITHUB_TOKEN": "ghp-FAKE",
    "ANTHROPIC_API_KEY": "sk-ant-FAKE",
}
KEPT = {
    "PWD": "/home/alice/work",
    "OLDPWD": "/home/alice",
    "LD_LIBRARY_PATH": "/opt/lib",
    "PYTHONPATH": "/opt/py",
    "GIT_AUTHOR_NAME": "Alice",
    "GIT_AUTHOR_EMAIL": "alice@example.com",
    "XAUTHORITY": "/home/alice/.Xauthority",
    "XDG_SESSION_TYPE": "wayland",
    "DESKTOP_SESSION": "gnome",
    "TOKENIZERS_PARALLELISM": "false",
    "PYENV_ROOT": "/home/alice/.pyenv",
    "PYENV_VERSION": "3.12.1",
    "VIRTUAL_ENV": "/home/alice/work/.venv",
    "KEYTIMEOUT": "1",
    "ANTHROPIC_BASE_URL": "https://api.anthropic.com",
    "PIP_INDEX_URL": "https://pypi.org/simple",
    "MONKEY_ISLAND": "3",
    "KESI_VISIBLE_TEST": "visible",
}


@pytest.mark.parametrize("name", sorted(PROBE))
def test_every_credential_variable_of_the_probe_is_withheld(name: str) -> None:
    assert is_sensitive(name, PROBE[name]), name


@pytest.mark.parametrize("name", sorted(KEPT))
def test_the_toolchain_and_desktop_look_alikes_stay(name: str) -> None:
    assert not is_sensitive(name, KEPT[name]), name


def test_a_url_variable_is_withheld_only_when_its_value_carries_a_credential() -> None:
    assert not is_sensitive("MONGODB_URL", "mongodb://db.internal:27017/app")
    assert is_sensitive("MONGODB_URL", "mongodb://app:pw@db.internal:27017/app")
    assert is_sensitive("all_proxy", "socks5://user:pw@proxy:1080")
    assert not is_sensitive("all_proxy", "socks5://proxy:1080")


def test_pass_env_passes_named_variables_and_the_prompt_names_the_rest() -> None:
    base = {**PROBE, **KEPT}
    env = scrub_environment(base, passed=("GH_PAT",))
    assert env == {**KEPT, "GH_PAT": PROBE["GH_PAT"]}
    assert passed_variables(base, ("GH_PAT", "PYENV_ROOT", "MISSING")) == {
        "GH_PAT": PROBE["GH_PAT"]
    }
    withheld = withheld_names(base, ("GH_PAT",))
    assert set(withheld) == set(PROBE) - {"GH_PAT"}
    state = SandboxState("none", "off")
    env_text = PromptEnvironment(date(2026, 12, 2), Path("/w"), "Linux", state, withheld=withheld)
    block = environment_block(env_text, "en")
    line = next(line for line in block.splitlines() if "passEnv" in line)
    assert "MYSQL_PWD" in line and "GH_PAT" not in line
    assert all(value not in block for value in PROBE.values())
    zh = environment_block(env_text, "zh-TW")
    assert "憑證變數" in zh and "BW_SESSION" in zh


@pytest.mark.usefixtures("bwrap")
async def test_env_inside_the_sandbox_prints_none_of_the_names(playground: Playground) -> None:
    environ = {**playground.environ, **PROBE, **KEPT}
    play = dataclasses.replace(playground, environ=environ)
    me = agent(play, bubblewrap(play), pass_env=("GH_PAT",))
    result = await me.run("env; python3 -c 'import sys; print(\"python\", sys.version_info[0])'")
    assert not result.is_error, result.text
    printed = {line.split("=", 1)[0] for line in result.text.splitlines() if "=" in line}
    assert printed.isdisjoint(set(PROBE) - {"GH_PAT"}), printed & set(PROBE)
    for value in PROBE.values():
        assert value not in result.text
    # Passed on purpose: the command has it, the model reads only the marker.
    assert "GH_PAT=[redacted: value of GH_PAT]" in result.text
    assert {"GIT_AUTHOR_NAME", "LD_LIBRARY_PATH", "KESI_VISIBLE_TEST", "PYENV_VERSION"} <= printed
    assert "python 3" in result.text
