"""`kesi-lsp doctor`: what works on this machine, one ✔/✘ line each, and an exit status.

Checked: the Python, the API key (present or not; its value is never printed), whether the
model answers a tiny request (skipped with `--offline`), ripgrep, the command sandbox KeSi
would use and a live probe that it really blocks the network, git, and whether ACP mode is
ready (`kesi-lsp acp` answers an `initialize` the way an ACP client starts it). A ✘ is
something KeSi needs and does not have (exit status 1); a `!` is a limitation KeSi works with
and says so (no sandbox on this system, no git). Every ✘ and `!` says what to do.

The network probe needs no internet: the doctor listens on a port of this machine's loopback
and connects to it from a plain shell (which must work, or the probe proves nothing) and then
from inside the sandbox (which must fail: the sandbox has a network namespace of its own).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from kesi_lsp import __version__
from kesi_lsp.catalog import Locale, text

Status = Literal["ok", "fail", "warn", "skip"]
MIN_PYTHON = (3, 11)
PROBE_SECONDS = 20.0
MODEL_SECONDS = 30.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Check what KeSi needs on this machine: Python, the API key (never printed), the "
        "model (a tiny request), ripgrep, the command sandbox and a live probe that it blocks "
        "the network, git. Exit status 0 when everything KeSi needs is there."
    )
    parser.add_argument(
        "--offline", action="store_true", help="skip the request that checks the model answers"
    )
    parser.add_argument(
        "--model", help="the model to check (default: kesi-lsp's default, claude-haiku-4-5)"
    )
    parser.add_argument(
        "--locale", choices=("en", "zh-TW"), default="en", help="language of the report"
    )
    parser.add_argument(
        "--mcp-config",
        help="also start the MCP servers of this JSON file (mcpServers) and report each",
    )


@dataclass(frozen=True)
class Check:
    """One line of the report, and what to do about it."""

    status: Status
    line: str
    hint: str = ""


def main(args: argparse.Namespace) -> int:
    from kesi_lsp.core import DEFAULT_MODEL
    from kesi_lsp.demo.screen import screen_for

    locale: Locale = "zh-TW" if args.locale == "zh-TW" else "en"
    screen = screen_for(sys.stdout)
    screen.title(text("demo.doctor.title", locale, version=__version__))
    environ = dict(os.environ)
    model = args.model or DEFAULT_MODEL
    checks: list[Callable[[], list[Check]]] = [
        lambda: [check_python(locale)],
        lambda: [check_api_key(environ, locale)],
        lambda: [check_model(environ, model, locale, offline=args.offline)],
        lambda: [check_rg(locale)],
        lambda: check_sandbox(environ, locale),
        lambda: [check_git(locale)],
        lambda: [check_acp_mode(environ, locale)],
    ]
    if args.mcp_config:
        checks.append(lambda: check_mcp(Path(args.mcp_config), locale))
    failures = 0
    for run in checks:
        for check in run():
            failures += check.status == "fail"
            show(screen, check)
    if failures:
        screen.bad(text("demo.doctor.failed", locale, count=failures))
        return 1
    screen.good(text("demo.doctor.passed", locale))
    return 0


MARKS: dict[Status, str] = {"ok": "✔", "fail": "✘", "warn": "!", "skip": "–"}


def show(screen: Any, check: Check) -> None:
    line = f"{MARKS[check.status]} {check.line}"
    {"ok": screen.good, "fail": screen.bad, "warn": screen.warn, "skip": screen.note}[check.status](
        line
    )
    if check.hint:
        screen.note(f"    → {check.hint}")


# -- the checks -----------------------------------------------------------------------------


def check_mcp(config: Path, locale: Locale) -> list[Check]:
    """Each MCP server of `config`, started as a session would: ready with its tools, or why
    not (`kesi-lsp mcp list`)."""
    from kesi_lsp.mcp_cli import server_report

    lines, ok = server_report(config, locale)
    return [Check("ok" if ok else "fail", "\n  ".join(lines))]


def check_python(locale: Locale) -> Check:

    version = platform.python_version()
    line = text("demo.doctor.python", locale, version=version, path=sys.executable)
    if sys.version_info[:2] >= MIN_PYTHON:
        return Check("ok", line)
    return Check("fail", line, text("demo.doctor.python_hint", locale))


def check_api_key(environ: Mapping[str, str], locale: Locale) -> Check:
    """Present or not. The value is never shown, not even in part."""

    if environ.get("ANTHROPIC_API_KEY", "").strip():
        return Check("ok", text("demo.doctor.key_set", locale))
    return Check(
        "fail",
        text("demo.doctor.key_missing", locale),
        text("demo.doctor.key_hint", locale),
    )


def check_model(environ: Mapping[str, str], model: str, locale: Locale, *, offline: bool) -> Check:
    """A one-token request through KeSi's own model client."""

    base_url = environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com"
    if offline:
        return Check("skip", text("demo.doctor.model_offline", locale, model=model))
    if not environ.get("ANTHROPIC_API_KEY", "").strip():
        return Check("skip", text("demo.doctor.model_no_key", locale, model=model))
    import asyncio

    started = time.monotonic()
    try:
        answered = asyncio.run(_ask_model(environ, model))
    except Exception as exc:
        from kesi_lsp.core import describe_api_error

        return Check(
            "fail",
            text("demo.doctor.model_failed", locale, model=model, url=base_url),
            describe_api_error(exc, locale),
        )
    seconds = f"{time.monotonic() - started:.1f}"
    line = text("demo.doctor.model_ok", locale, model=answered, url=base_url, seconds=seconds)
    return Check("ok", line)


async def _ask_model(environ: Mapping[str, str], model: str) -> str:
    from kesi_lsp.core import AgentSettings, ModelClient

    client = ModelClient(AgentSettings(model=model), environ, max_retries=1, timeout=MODEL_SECONDS)
    try:
        params = {
            "model": model,
            "max_tokens": 1,
            "messages": [{"role": "user", "content": "ping"}],
        }
        async with client.stream(params, on_notice=lambda notice: None, locale="en") as stream:
            message = await stream.get_final_message()
        return str(message.model)
    finally:
        await client.aclose()


def check_rg(locale: Locale) -> Check:
    from kesi_lsp.core import find_rg

    rg = find_rg()
    if rg is None:
        return Check(
            "fail", text("demo.doctor.rg_missing", locale), text("demo.doctor.rg_hint", locale)
        )
    version = _first_line([rg, "--version"])
    return Check("ok", text("demo.doctor.rg_ok", locale, version=version or "?", path=rg))


def check_git(locale: Locale) -> Check:

    git = shutil.which("git")
    if git is None:
        return Check(
            "warn", text("demo.doctor.git_missing", locale), text("demo.doctor.git_hint", locale)
        )
    version = _first_line([git, "--version"])
    return Check("ok", text("demo.doctor.git_ok", locale, version=version or "git", path=git))


def check_acp_mode(environ: Mapping[str, str], locale: Locale) -> Check:
    """`kesi-lsp acp` answers an ACP client's `initialize`."""
    from kesi_lsp.acp.readiness import check_acp

    found = check_acp(dict(environ))
    if found.ready:
        return Check(
            "ok", text("demo.doctor.acp_ok", locale, version=found.version, protocol=found.protocol)
        )
    line = text("demo.doctor.acp_failed", locale, problem=found.problem)
    return Check("fail", line, text("demo.doctor.acp_hint", locale))


# -- the sandbox and its network probe -----------------------------------------------------------


def check_sandbox(environ: Mapping[str, str], locale: Locale) -> list[Check]:
    """The sandbox `auto` picks for a workspace here, and whether it really blocks the network."""
    from kesi_lsp.core import NoSandbox, describe_sandbox, sandbox_status_line, select_sandbox

    with tempfile.TemporaryDirectory(prefix="kesi-doctor-") as folder:
        root = Path(folder).resolve()
        sandbox = select_sandbox("auto", root, environ, locale=locale)
        state = sandbox_status_line(describe_sandbox(sandbox, root, environ), locale)
        if isinstance(sandbox, NoSandbox):
            return [Check("warn", state, text("demo.doctor.sandbox_none_hint", locale))]
        probe = network_probe(
            lambda command: sandbox.argv(command, root),
            sandbox.environment(environ, root),
            root,
        )
        proxy = check_proxy(sandbox, root, environ, locale)
    return [Check("ok", state), _blocked(probe, locale), *proxy]


def _blocked(probe: Probe, locale: Locale) -> Check:
    if probe.blocked is None:
        line = text("demo.doctor.net_unknown", locale, detail=probe.detail)
        return Check("fail", line, text("demo.doctor.net_unknown_hint", locale))
    if probe.blocked:
        return Check("ok", text("demo.doctor.net_blocked", locale, port=probe.port))
    line = text("demo.doctor.net_open", locale, port=probe.port)
    return Check("fail", line, text("demo.doctor.net_open_hint", locale))


def check_proxy(
    sandbox: Any, root: Path, environ: Mapping[str, str], locale: Locale
) -> list[Check]:
    """The network's mode and lists as the user's settings (environment) give them, and a live
    probe of the proxy: an allowed test host through it answers, a denied one is refused."""
    from kesi_lsp.core import environment_settings, parse_settings, probe_proxy

    settings = parse_settings(environment_settings(environ)).settings
    if settings.sandbox_network == "off":
        return [Check("ok", text("demo.doctor.network_off", locale))]
    none = text("demo.doctor.network_none", locale)
    mode = text(
        "demo.doctor.network_mode",
        locale,
        mode=settings.sandbox_network,
        allow=", ".join(settings.network_allow) or none,
        deny=", ".join(settings.network_deny) or none,
    )
    probe = asyncio.run(probe_proxy(sandbox, root, environ))
    if probe.ok:
        return [Check("ok", mode), Check("ok", text("demo.doctor.proxy_ok", locale))]
    line = text(f"demo.doctor.proxy_{probe.problem}", locale, detail=probe.detail)
    return [Check("ok", mode), Check("fail", line, text("demo.doctor.proxy_hint", locale))]


@dataclass(frozen=True)
class Probe:
    """`blocked`: True (refused inside, works outside), False (works inside), None (unknown)."""

    blocked: bool | None
    port: int
    detail: str = ""


def _connect_command(port: int) -> str | None:
    """A shell command that exits 0 only if it can connect to 127.0.0.1:`port`."""
    if shutil.which("bash"):
        return f"exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/{port}'"
    for python in ("python3", "python"):
        if shutil.which(python):
            code = f"import socket; socket.create_connection(('127.0.0.1', {port}), 5)"
            return f'{python} -c "{code}"'
    return None


def network_probe(wrap: Callable[[str], list[str]], env: Mapping[str, str], cwd: Path) -> Probe:
    """Connect to a port this machine listens on: outside (must work), inside `wrap` (must not)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = int(listener.getsockname()[1])
        command = _connect_command(port)
        if command is None:
            return Probe(None, port, "no bash or python to probe with")
        outside = _run(["/bin/sh", "-c", command], dict(env), cwd)
        if outside.returncode != 0:
            return Probe(None, port, _tail(outside))
        inside = _run(wrap(command), dict(env), cwd)
        return Probe(inside.returncode != 0, port, _tail(inside))


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            argv,
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=PROBE_SECONDS,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return subprocess.CompletedProcess(argv, 127, "", str(exc))


def _tail(done: subprocess.CompletedProcess[str]) -> str:
    lines = (done.stderr or done.stdout or f"exit status {done.returncode}").strip().splitlines()
    return lines[-1] if lines else f"exit status {done.returncode}"


def _first_line(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return (done.stdout.strip().splitlines() or [""])[0]
