"""The system prompt (Day 16): a stable rules block, then the environment of this request.

The two blocks change at different rates. The rules never change during a session, so they are
byte-identical in every request and sit in front of the `cache_control` breakpoint; the
environment (date, workspace, OS, closed names, the sandbox's honest state, whether edits are
reviewed first, the editor's unsaved files) is rebuilt for every request and sits after it.
Everything here is pure: the caller passes every fact in, nothing is read from the process or
the clock.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.paths import IGNORED_NAMES
from kesi_lsp.core.sandbox.selection import SandboxState, prompt_lines
from kesi_lsp.core.settings.agent import ApprovalMode

if TYPE_CHECKING:
    from anthropic.types import TextBlockParam


@dataclass(frozen=True)
class PromptEnvironment:
    """The facts of one request that the environment block states."""

    today: datetime.date
    root: Path
    os_name: str
    sandbox: SandboxState
    unsaved: tuple[str, ...] = ()
    approvals: ApprovalMode = "ask"
    ignored_names: Collection[str] = IGNORED_NAMES
    venv: str | None = None
    """The workspace virtualenv every command runs with (relative to the workspace), if any."""
    withheld: tuple[str, ...] = ()
    """The credential variables commands do not get (names only, `core.sandbox.env`)."""
    tasks: str | None = None
    """The line naming the background tasks running now (`background.words`), if any."""
    network: str | None = None
    """The sandbox's network line (`core.network.prompt`), when commands reach the proxy."""


def rules_block(locale: Locale) -> str:
    """The rules: identical, byte for byte, for every request of a session in `locale`.

    The seed's Day 16 rules come first, word for word; then how KeSi works in the editor on
    top of them (the plan, verification, the editor's diagnostics, reading big files).
    """
    return text("loop.prompt.rules", locale) + "\n\n" + text("loop.prompt.working", locale)


def environment_block(env: PromptEnvironment, locale: Locale) -> str:
    """The environment of this request, in the seed's order, with the editor's additions."""
    sep = text("common.list_sep", locale)
    lines = [
        text("loop.prompt.env.title", locale),
        "",
        text("loop.prompt.env.date", locale, date=env.today.isoformat()),
        text("loop.prompt.env.root", locale, root=env.root),
        text("loop.prompt.env.os", locale, os=env.os_name),
        text("loop.prompt.env.fence", locale),
        text("loop.prompt.env.ignored", locale, names=sep.join(sorted(env.ignored_names))),
    ]
    lines.extend(f"- {line}" for line in prompt_lines(env.sandbox, locale))
    if env.network is not None:
        lines.append(f"- {env.network}")
    if env.venv is not None:  # design §3: the prompt names the venv commands run with
        lines.append(text("loop.prompt.env.venv", locale, venv=env.venv))
    if env.withheld:  # issue 29: the model knows why `echo $GH_TOKEN` prints nothing
        lines.append(text("loop.prompt.env.withheld", locale, names=sep.join(env.withheld)))
    # The model must know whether the user sees a change before it lands (Day 16's honesty).
    accepted = env.approvals == "acceptEdits"
    lines.append(
        text("loop.prompt.env.edits_accepted" if accepted else "loop.prompt.env.edits", locale)
    )
    if env.unsaved:
        lines.append(text("loop.prompt.env.unsaved", locale, files=sep.join(env.unsaved)))
    if env.tasks is not None:  # the model must know what it left running (issue 28)
        lines.append(env.tasks)
    return "\n".join(lines)


def system_blocks(
    env: PromptEnvironment, locale: Locale, *, caching: bool, instructions: str | None = None
) -> list[TextBlockParam]:
    """The `system` field: [rules, project instructions?, environment], with a cache
    breakpoint after the last stable block.

    With `caching`, the breakpoint caches the tools, the rules and the project's instructions
    together (the API's prefix order is tools, then system, then messages), and the environment
    that follows may change freely without invalidating them (design §2.11).
    """
    stable: list[TextBlockParam] = [{"type": "text", "text": rules_block(locale)}]
    if instructions:
        stable.append({"type": "text", "text": instructions})
    if caching:
        stable[-1]["cache_control"] = {"type": "ephemeral"}
    environment: TextBlockParam = {"type": "text", "text": environment_block(env, locale)}
    return [*stable, environment]
