"""Is ACP mode ready here? What `kesi-lsp doctor` checks: the `acp` package is installed and
`kesi-lsp acp` really answers an `initialize` on its stdio (a new process, the way an editor
starts it), with the protocol version KeSi speaks.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from typing import Final

PACKAGE: Final = "agent-client-protocol"
SECONDS: Final = 30.0


@dataclass(frozen=True)
class Readiness:
    """`version` of the package (None: not installed); `protocol` the version `kesi-lsp acp`
    answered (None: it did not answer); `problem` what went wrong, in the process's words."""

    version: str | None
    protocol: int | None = None
    problem: str = ""

    @property
    def ready(self) -> bool:
        return self.version is not None and self.protocol is not None


def check_acp(environ: dict[str, str] | None = None) -> Readiness:
    """Start `kesi-lsp acp`, send `initialize`, read the answer, close its stdin."""
    try:
        version = metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return Readiness(None, problem=f"{PACKAGE} is not installed")
    request = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": 1, "clientCapabilities": {}},
    }
    try:
        done = subprocess.run(
            [sys.executable, "-m", "kesi_lsp", "acp"],
            input=json.dumps(request) + "\n",
            capture_output=True,
            text=True,
            timeout=SECONDS,
            env=environ,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Readiness(version, problem=str(exc))
    for line in done.stdout.splitlines():
        try:
            answer = json.loads(line)
        except ValueError:
            return Readiness(version, problem=f"not JSON-RPC on stdout: {line[:80]!r}")
        protocol = (
            answer.get("result", {}).get("protocolVersion") if answer.get("id") == 0 else None
        )
        if isinstance(protocol, int):
            return Readiness(version, protocol)
    tail = (done.stderr.strip().splitlines() or ["no answer"])[-1]
    return Readiness(version, problem=tail)
