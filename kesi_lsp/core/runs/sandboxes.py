"""The sandbox of each folder, chosen once and announced once ("protection you can't see
doesn't count", seed Day 15).

Choosing probes bubblewrap (a process start, tens of milliseconds), so it happens once per
(folder, sandbox setting) and off the event loop; the first run there says what confines its
shell commands, and warns where the user cannot miss it when nothing does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.sandbox.selection import SandboxState, describe, select_sandbox, status_line
from kesi_lsp.core.settings import AgentSettings


@dataclass
class Sandboxes:
    """The sandbox of each (folder, mode): choosing one probes bwrap, so it is done once."""

    environ: Mapping[str, str]
    chosen: dict[tuple[Path, str], Sandbox] = field(default_factory=dict)

    async def get(self, root: Path, settings: AgentSettings) -> tuple[Sandbox, bool]:
        """The sandbox, and whether it was just chosen (then the user is told which)."""
        key = (root, settings.sandbox)
        if key in self.chosen:
            return self.chosen[key], False
        sandbox = await asyncio.to_thread(
            select_sandbox, settings.sandbox, root, self.environ, locale=settings.locale
        )
        self.chosen[key] = sandbox
        return sandbox, True


@dataclass(frozen=True)
class Announcement:
    """What the first run in a folder says about its sandbox: the status line, and whether
    commands run unconfined (then the front end also warns where the user cannot miss it)."""

    line: str
    unconfined: bool


def announcement(
    sandbox: Sandbox, root: Path, settings: AgentSettings, environ: Mapping[str, str]
) -> Announcement:
    """The words for `sandbox` in `root`, in the session's locale."""
    state: SandboxState = describe(sandbox, root, environ)
    return Announcement(status_line(state, settings.locale), state.variant != "on")
