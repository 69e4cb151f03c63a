"""`kesi-lsp doctor`: honest ✔/✘ lines, an exit status, and a key that is never printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kesi_lsp.core.sandbox import NoSandbox
from kesi_lsp.core.sandbox.selection import select_sandbox
from kesi_lsp.doctor import network_probe
from kesi_lsp.scripted_api import http_error, reply, script
from tests.core.sandbox.conftest import bwrap
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.subprocess

__all__ = ["bwrap"]
FAKE_KEY = "sk-ant-doctor-test-0123456789-abcdefghij"


def doctor(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    clean.update(env)
    script_path = Path(sys.executable).parent / "kesi-lsp"
    command = [str(script_path)] if script_path.exists() else [sys.executable, "-m", "kesi_lsp"]
    return subprocess.run(
        [*command, "doctor", *args],
        env=clean,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_without_a_key_it_says_how_to_set_one_and_fails() -> None:
    done = doctor("--offline")
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "✘ ANTHROPIC_API_KEY is not set" in out
    assert "export ANTHROPIC_API_KEY=" in out and "console.anthropic.com" in out
    assert "– model claude-haiku-4-5: not checked (--offline)" in out
    assert "✔ Python 3." in out
    assert "✔ ripgrep " in out
    assert "Command sandbox:" in out
    assert "1 problem(s) marked ✘ above (exit status 1)." in out
    assert "Traceback" not in out + done.stderr


def test_a_key_is_reported_present_and_never_printed() -> None:
    done = doctor("--offline", ANTHROPIC_API_KEY=FAKE_KEY)
    out = done.stdout + done.stderr
    assert "✔ ANTHROPIC_API_KEY is set (its value is not shown)" in out
    assert FAKE_KEY not in out and FAKE_KEY[-8:] not in out and FAKE_KEY[:12] not in out
    assert done.returncode == 0, out  # everything else this machine has is enough
    assert "Everything KeSi needs is here (exit status 0)." in out


def test_the_model_check_makes_one_tiny_request(scripted_api: StartServer) -> None:
    server = scripted_api(script(reply("p")))
    done = doctor(
        "--model",
        "claude-sonnet-4-5",
        ANTHROPIC_API_KEY=FAKE_KEY,
        ANTHROPIC_BASE_URL=server.base_url,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert f"✔ model claude-sonnet-4-5 answered a one-token request at {server.base_url}" in out
    [request] = server.requests
    assert request.body["max_tokens"] == 1 and request.body["model"] == "claude-sonnet-4-5"
    sent = request.headers.get("x-api-key") or request.headers.get("authorization", "")
    assert FAKE_KEY in sent, "the key from the environment reaches the API"
    assert FAKE_KEY not in out


def test_a_model_that_refuses_the_key_is_a_failure_with_the_reason(
    scripted_api: StartServer,
) -> None:
    server = scripted_api(script(http_error(401)))
    done = doctor(ANTHROPIC_API_KEY=FAKE_KEY, ANTHROPIC_BASE_URL=server.base_url)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert f"✘ model claude-haiku-4-5 did not answer at {server.base_url}" in out
    assert "401" in out and "invalid x-api-key" in out
    assert "Traceback" not in out and FAKE_KEY not in out


def test_the_network_probe_is_not_fooled(tmp_path: Path) -> None:
    """Without confinement the probe connects (not blocked); under bubblewrap it cannot."""
    env = dict(os.environ)
    open_probe = network_probe(lambda command: ["/bin/sh", "-c", command], env, tmp_path)
    assert open_probe.blocked is False
    sandbox = select_sandbox("auto", tmp_path, env)
    if isinstance(sandbox, NoSandbox):
        if os.environ.get("KESI_CI") == "1" and sys.platform.startswith("linux"):
            pytest.fail(f"no working bubblewrap in CI: {sandbox.detail}")
        pytest.skip(f"no sandbox here: {sandbox.detail}")
    probe = network_probe(
        lambda command: sandbox.argv(command, tmp_path),
        sandbox.environment(env, tmp_path),
        tmp_path,
    )
    assert probe.blocked is True, probe.detail


@pytest.mark.usefixtures("bwrap")
def test_the_doctor_shows_the_network_settings_and_probes_the_proxy() -> None:
    """The mode and lists from the user's settings, then the live probe; mode off says so and
    starts no proxy."""
    done = doctor("--offline", KESI_SANDBOX_NETWORK_ALLOW="pypi.org,*.pythonhosted.org")
    assert (
        "✔ sandbox network: ask (kesi.sandboxNetwork); allowed hosts: pypi.org, "
        "*.pythonhosted.org; denied: none" in done.stdout
    ), done.stdout
    assert "✔ the network proxy works: an allowed test host" in done.stdout
    assert "a denied one was refused (403) and never reached" in done.stdout
    off = doctor("--offline", KESI_SANDBOX_NETWORK="off")
    assert "✔ sandbox network: off (kesi.sandboxNetwork): sandboxed commands have no" in off.stdout
    assert "network proxy" not in off.stdout


def test_the_doctor_says_acp_mode_is_ready() -> None:
    done = doctor("--offline")
    assert "✔ ACP mode: ready (agent-client-protocol 0.12." in done.stdout
    assert "protocol v1); an ACP client starts it as: kesi-lsp acp" in done.stdout


def test_acp_mode_that_cannot_answer_is_a_failure_with_the_reason(tmp_path: Path) -> None:
    """A broken `acp` package in the way: `kesi-lsp acp` cannot answer initialize."""
    from kesi_lsp.acp.readiness import check_acp

    broken = tmp_path / "acp"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('this acp is broken')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    found = check_acp(env)
    assert not found.ready and found.version is not None
    assert "this acp is broken" in found.problem
