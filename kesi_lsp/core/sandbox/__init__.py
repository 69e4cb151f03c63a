"""The sandbox seam: how run_command's shell is launched.

`Sandbox.argv` turns a command string into the argv to execute (plain `/bin/sh -c`, or the same
wrapped in bubblewrap / sandbox-exec), always under a watcher of the server's lifeline (the
tether, or bubblewrap's guard: `children.py`), so that it is started with
`children.start(..., watches_itself=True)` and dies with the server; and `Sandbox.environment`
builds the child's environment from the host's (always scrubbed of credential-looking variables).

Which sandbox a session gets is `selection.select_sandbox`'s job; what it means (for the user's
status line and the model's system prompt) is `selection.describe`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from kesi_lsp.core.sandbox.children import tied
from kesi_lsp.core.sandbox.netns import SharedNetwork
from kesi_lsp.core.sandbox.toolchain import command_environment

SandboxKind = Literal["bubblewrap", "seatbelt", "none"]
OffReason = Literal["setting", "unavailable"]
SHELL_PATH = "/bin/sh"


@dataclass(frozen=True)
class NetworkBridge:
    """How one command reaches KeSi's network proxy (`core.network`): its UNIX socket
    (`socket_path`, bound into a bubblewrap sandbox) or its loopback `port` (Seatbelt, whose
    profile then allows that one port). Passed to `argv` only when the proxy is on."""

    socket_path: str = ""
    port: int = 0


class Sandbox(Protocol):
    """Confinement for shell commands. `kind` is reported honestly to the user and the model."""

    @property
    def kind(self) -> SandboxKind: ...

    def argv(
        self,
        command: str,
        root: Path,
        network: NetworkBridge | None = None,
        shared: SharedNetwork | None = None,
    ) -> list[str]:
        """Return the argv that runs `command` through `/bin/sh -c` with `root` as workspace,
        under a watcher of the server's lifeline (`children.py`); `network`, when the proxy is
        on, is this command's way to it (only confining sandboxes are given one); `shared`,
        once the session runs a background task, is the session's network namespace that its
        commands share (`netns.py`: its descriptors are then passed to the child; only
        namespace sandboxes use it)."""
        ...

    def environment(self, base: Mapping[str, str], root: Path) -> dict[str, str]:
        """Return the child's environment: `base` scrubbed, plus whatever confinement needs."""
        ...


@dataclass(frozen=True)
class NoSandbox:
    """No confinement at all. Only the fence and the permission gate stand between the model and
    the machine; the system prompt and the user are told so (seed Day 15/16).

    `reason` says why: the `sandbox` setting is off, or nothing usable exists here (`detail`
    names the platform or what went wrong).
    """

    reason: OffReason = "setting"
    detail: str = ""

    @property
    def kind(self) -> SandboxKind:
        return "none"

    def argv(
        self,
        command: str,
        root: Path,
        network: NetworkBridge | None = None,
        shared: SharedNetwork | None = None,
    ) -> list[str]:
        return tied([SHELL_PATH, "-c", command])  # the host's own network: nothing to share

    def environment(self, base: Mapping[str, str], root: Path) -> dict[str, str]:
        return command_environment(base, root)
