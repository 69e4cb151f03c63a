"""Which KeSi server a language-server test talks to, and where it runs.

The server is always the real one (`create_server`: the same features, documents, delivery
and gate); a test chooses only its agent and its process:

- `None`: the real agent loop (the model is the scripted Messages API the test points it at);
- `ScriptedAgent` (the `scripted_agent` fixture): tests/lsp/scripted_agent.py's runner, which
  plays steps through the core's seams so an editor-side race happens exactly where the test
  wants it;
- `Subprocess(...)`: either of them as a real `kesi-lsp` process over stdio, for what only a
  process shows (its stdout, signals, exit codes, the console entry point).

Without `Subprocess`, the server runs in this process, in a thread, over OS pipes
(kesi_lsp.testing.InProcess): the same JSON-RPC, without starting an interpreter and
importing the SDK for every test. `KESI_TEST_SERVER=subprocess` runs every test against a
real process instead (slower; for when a difference between the two is suspected).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kesi_lsp.lsp.app import create_server
from kesi_lsp.testing import InProcess, Program
from tests.processes import may_start_our_process

REPO = Path(__file__).resolve().parents[2]
KESI_LSP = (sys.executable, "-m", "kesi_lsp")


def server_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a test server: no real credentials, the repo importable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra or {})
    return env


@dataclass(frozen=True)
class ScriptedAgent:
    """The scripted agent playing `steps` (saved in `steps_file` for a subprocess)."""

    steps: list[dict[str, Any]]
    steps_file: Path

    @property
    def argv(self) -> list[str]:
        return [sys.executable, "-m", "tests.lsp.scripted_agent", str(self.steps_file)]

    def runner(self) -> Any:
        from tests.lsp.scripted_agent import ScriptedRunner

        return ScriptedRunner(self.steps)


@dataclass(frozen=True)
class Subprocess:
    """A real `kesi-lsp` process over stdio, with the real agent or `agent`, started with
    `args` after the command (`--log-file PATH`, for a test that reads the server's log)."""

    agent: ScriptedAgent | None = None
    args: tuple[str, ...] = ()


ServerChoice = ScriptedAgent | Subprocess | None


def in_subprocess_always() -> bool:
    return os.environ.get("KESI_TEST_SERVER") == "subprocess"


def server_for(choice: ServerChoice, env: Mapping[str, str] | None) -> Program | InProcess:
    """The server to start for `choice`, with `env` on top of `server_env()`."""
    agent = choice.agent if isinstance(choice, Subprocess) else choice
    if isinstance(choice, Subprocess) or in_subprocess_always():
        may_start_our_process("a kesi-lsp process")
        args = choice.args if isinstance(choice, Subprocess) else ()
        argv = [*(agent.argv if agent else KESI_LSP), *args]
        return Program(argv, env=server_env(env), cwd=REPO)
    return in_process(agent, env)


def in_process(agent: ScriptedAgent | None, env: Mapping[str, str] | None) -> InProcess:
    """The server in this process, whatever KESI_TEST_SERVER says."""
    environ = server_env(env)
    runner = agent.runner() if agent else None
    return InProcess(lambda: create_server(environ, runner))
