"""The system prompt (Day 16): a stable rules block, then the environment of this request.

The two blocks change at different rates. The rules never change during a session, so they are
byte-identical in every request and sit in front of the `cache_control` breakpoint; the
environment (date, workspace, OS, closed names, the sandbox's honest state, the editor's
unsaved files) is rebuilt for every request and sits after it. Everything here is pure: the
caller passes every fact in, nothing is read from the process or the clock.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.sandbox import SandboxKind

if TYPE_CHECKING:
    from anthropic.types import TextBlockParam

# The names no tool may read or write, at any depth (plus files starting with `.env.`).
IGNORED_NAMES: Final = (
    ".git",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
    ".env",
    ".DS_Store",
    ".pytest_cache",
)


@dataclass(frozen=True)
class SandboxState:
    """What the model is told about the command sandbox: one of the seed's three variants.

    `kind` "none" is "off". Otherwise it is "on", unless `workspace_is_home` (the workspace is
    the home directory or above it), where the path limit means nothing and the prompt says so.
    `description` names the mechanism shown in parentheses (e.g. "bubblewrap").
    """

    kind: SandboxKind
    description: str = ""
    workspace_is_home: bool = False


def sandbox_state(kind: SandboxKind, root: Path, home: Path | None) -> SandboxState:
    """Build the honest sandbox state for `root` given the user's `home` (None: unknown)."""
    useless = home is not None and (root == home or root in home.parents)
    return SandboxState(kind=kind, description=kind, workspace_is_home=useless)


@dataclass(frozen=True)
class PromptEnvironment:
    """The facts of one request that the environment block states."""

    today: datetime.date
    root: Path
    os_name: str
    sandbox: SandboxState
    unsaved: tuple[str, ...] = ()
    ignored_names: Collection[str] = IGNORED_NAMES


def rules_block(locale: Locale) -> str:
    """The rules: identical, byte for byte, for every request of a session in `locale`."""
    return text("loop.prompt.rules", locale)


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
    sandbox = env.sandbox
    description = sandbox.description or sandbox.kind
    if sandbox.kind == "none":
        lines.append(text("loop.prompt.env.sandbox_off", locale))
    elif sandbox.workspace_is_home:
        lines.append(text("loop.prompt.env.sandbox_home", locale, description=description))
    else:
        lines.append(text("loop.prompt.env.sandbox_on", locale, description=description))
    if sandbox.kind != "none":
        lines.append(text("loop.prompt.env.sandbox_hint", locale))
    lines.append(text("loop.prompt.env.edits", locale))
    if env.unsaved:
        lines.append(text("loop.prompt.env.unsaved", locale, files=sep.join(env.unsaved)))
    return "\n".join(lines)


def system_blocks(env: PromptEnvironment, locale: Locale, *, caching: bool) -> list[TextBlockParam]:
    """The `system` field: [rules, environment], with a cache breakpoint after the rules.

    With `caching`, the breakpoint caches the tools and the rules together (the API's prefix
    order is tools, then system, then messages), and the environment that follows may change
    freely without invalidating them.
    """
    rules: TextBlockParam = {"type": "text", "text": rules_block(locale)}
    if caching:
        rules["cache_control"] = {"type": "ephemeral"}
    environment: TextBlockParam = {"type": "text", "text": environment_block(env, locale)}
    return [rules, environment]
