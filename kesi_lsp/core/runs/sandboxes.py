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
from kesi_lsp.core.sandbox.bubblewrap import Limits
from kesi_lsp.core.sandbox.selection import SandboxState, describe, select_sandbox, status_line
from kesi_lsp.core.settings.agent import AgentSettings

_Key = tuple[Path, str, Limits]


@dataclass
class Sandboxes:
    """The sandbox of each (folder, mode): choosing one probes bwrap, so it is done once —
    ahead of time when the front end prepares (`choose`), else by the first run (`get`)."""

    environ: Mapping[str, str]
    chosen: dict[_Key, Sandbox] = field(default_factory=dict)
    announced: set[tuple[Path, str]] = field(default_factory=set)
    _choosing: dict[_Key, asyncio.Task[Sandbox]] = field(default_factory=dict)

    async def choose(self, root: Path, settings: AgentSettings) -> Sandbox:
        """The sandbox of (root, mode, limits), probed once (concurrent callers share the
        probe); announced once per (root, mode)."""
        limits = Limits(max_memory_bytes=settings.command_memory_limit << 20)
        key = (root, settings.sandbox, limits)
        if key in self.chosen:
            return self.chosen[key]
        choosing = self._choosing.get(key)
        if choosing is None:
            choosing = asyncio.ensure_future(
                asyncio.to_thread(
                    select_sandbox,
                    settings.sandbox,
                    root,
                    self.environ,
                    locale=settings.locale,
                    limits=limits,
                )
            )
            self._choosing[key] = choosing
        try:
            sandbox = await asyncio.shield(choosing)
        finally:
            if choosing.done():
                self._choosing.pop(key, None)
        self.chosen[key] = sandbox
        return sandbox

    async def get(self, root: Path, settings: AgentSettings) -> tuple[Sandbox, bool]:
        """The sandbox, and whether this is the first run to use it (then the user is told
        which: a sandbox chosen ahead of time is still announced by the first run)."""
        sandbox = await self.choose(root, settings)
        key = (root, settings.sandbox)
        fresh = key not in self.announced
        self.announced.add(key)
        return sandbox, fresh


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
