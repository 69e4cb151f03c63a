"""Running real commands in the real sandbox, the way run_command launches them.

Tests that need bubblewrap use the `bwrap` fixture: where bwrap is missing (or cannot build a
sandbox here) they are skipped with the reason shown, except under `KESI_CI=1` (set by
`.ci/run`, which installs bwrap), where they fail instead.

The playground follows the seed's Day 15 check: a fake home (never the real one) holding the
workspace, so "deny home, allow the workspace inside it" is exercised, with a workspace name
containing a double quote.

    <tmp>/home/alice/.ssh/config, id_ed25519      secrets in the fake home
    <tmp>/home/alice/projects/work"quoted/         the workspace
        note.txt, .env, .env.local, config/.env, config/.git/config,
        linked-secret.txt -> ../outside/secret.txt, hardlinked-secret.txt (hard link)
    <tmp>/home/alice/projects/outside/secret.txt   the neighbouring project
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from kesi_lsp.catalog import Locale
from kesi_lsp.core.errors import SandboxUnavailableError
from kesi_lsp.core.sandbox import Sandbox, children
from kesi_lsp.core.sandbox.bubblewrap import BubblewrapSandbox, Limits
from kesi_lsp.core.sandbox.selection import select_sandbox

SECRET = "the neighbour's secret"
FAKE_KEY = "sk-ant-fake-key-in-dotenv"


@dataclass(frozen=True)
class Playground:
    home: Path
    root: Path
    outside: Path
    environ: dict[str, str]

    async def run(self, sandbox: Sandbox, command: str, *, seconds: float = 60.0) -> Ran:
        """Run `command` in the workspace through `sandbox`."""
        return await run(sandbox, command, self.root, self.environ, seconds=seconds)


@dataclass(frozen=True)
class Ran:
    code: int
    output: str
    seconds: float


def make_playground(base: Path) -> Playground:
    home = base / "home" / "alice"
    root = home / "projects" / 'work"quoted'
    outside = home / "projects" / "outside"
    for folder in (home / ".ssh", root / "config" / ".git", outside):
        folder.mkdir(parents=True)
    (home / ".ssh" / "config").write_text("Host github.com\n  IdentityFile ~/.ssh/id_ed25519\n")
    (home / ".ssh" / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n")
    (root / "note.txt").write_text("a file inside the workspace\n")
    (root / ".env").write_text(f"ANTHROPIC_API_KEY={FAKE_KEY}\n")
    (root / ".env.local").write_text("TOKEN=another-fake-key\n")
    (root / "config" / ".env").write_text("DB_PASSWORD=nested-fake-key\n")
    (root / "config" / ".git" / "config").write_text('[remote "o"]\n url = https://x/secret/repo\n')
    (outside / "secret.txt").write_text(SECRET + "\n")
    (root / "linked-secret.txt").symlink_to(outside / "secret.txt")
    os.link(outside / "secret.txt", root / "hardlinked-secret.txt")
    environ = {
        "HOME": str(home),
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "ANTHROPIC_API_KEY": "sk-ant-FAKE",
        "GITHUB_TOKEN": "ghp-FAKE",
        "KESI_VISIBLE_TEST": "visible",
    }
    return Playground(home.resolve(), root.resolve(), outside.resolve(), environ)


@pytest.fixture
def playground(tmp_path: Path) -> Playground:
    return make_playground(tmp_path)


def _unusable(reason: str) -> None:
    if os.environ.get("KESI_CI") == "1":
        pytest.fail(f"KESI_CI=1 requires a working bubblewrap: {reason}")
    pytest.skip(f"bubblewrap sandbox tests need bwrap: {reason}")


@pytest.fixture
def bwrap() -> str:
    program = shutil.which("bwrap")
    if program is None:
        _unusable("bwrap is not installed (apt install bubblewrap)")
        raise AssertionError  # unreachable: skip and fail raise
    return program


def bubblewrap(
    playground: Playground, limits: Limits | None = None, *, locale: Locale = "en"
) -> BubblewrapSandbox:
    """The sandbox `select_sandbox("bubblewrap", ...)` gives for the playground."""
    try:
        sandbox = select_sandbox(
            "bubblewrap",
            playground.root,
            playground.environ,
            limits=limits or Limits(),
            locale=locale,
        )
    except SandboxUnavailableError as exc:
        _unusable(str(exc))
        raise
    assert isinstance(sandbox, BubblewrapSandbox)
    return sandbox


async def run(
    sandbox: Sandbox,
    command: str,
    root: Path,
    environ: Mapping[str, str],
    *,
    seconds: float = 60.0,
) -> Ran:
    """Launch `sandbox.argv(...)` as run_command does: own session, no stdin, merged output."""
    started = time.monotonic()
    proc = await children.start(
        sandbox.argv(command, root),
        cwd=root,
        env=sandbox.environment(environ, root),
        watches_itself=True,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        output, _ = await asyncio.wait_for(proc.communicate(), seconds)
    except TimeoutError:
        kill_group(proc.pid)
        output, _ = await proc.communicate()
    code = proc.returncode
    assert code is not None
    return Ran(code, output.decode("utf-8", "replace"), time.monotonic() - started)


def kill_group(pgid: int, sig: int = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, sig)


def unique_seconds(whole: int) -> str:
    """A `sleep` duration no other test run on this machine uses: a marker to look for."""
    return f"{whole}.{secrets.randbelow(10**9):09d}"


def fork_bomb() -> tuple[str, str]:
    """A fork bomb whose function name is unique to this call, and that name."""
    name = f"kesibomb{secrets.token_hex(4)}"
    return f"{name}() {{ {name} | {name}; }}; {name}", name
