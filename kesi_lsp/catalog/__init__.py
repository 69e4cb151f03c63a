"""The one message catalog: every user-facing and model-facing sentence KeSi says.

English is the default. `zh-TW` gives the KeSi blog's own Traditional Chinese wording, word for
word where the seed states it. Each domain keeps its sentences in its own module (so the tools,
the loop, the permission gate and the LSP adapter can evolve without touching each other), but
there is one key space and one lookup, and a test checks that every key has both locales and the
same `{placeholders}` in each.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, TypeGuard

from kesi_lsp.catalog import (
    acp,
    audit,
    background,
    changes,
    common,
    compaction,
    delivery,
    demo,
    doctor,
    editors,
    guards,
    loop,
    lsp,
    lsp_loop,
    mcp,
    network,
    permissions,
    redaction,
    rendered,
    resume,
    runs,
    sandbox,
    search_agent,
    settings,
    tool_descriptions,
    tools,
    working,
)

Locale = Literal["en", "zh-TW"]
LOCALES: Final[tuple[Locale, ...]] = ("en", "zh-TW")
DEFAULT_LOCALE: Final[Locale] = "en"

Editor = Literal["vscode", "nvim", "emacs", "helix", "acp", "lsp"]
"""The editor a session talks to (`lsp`: an LSP client KeSi does not know by name): it decides
how a sentence names the editor's own commands (`reset_command`)."""

_DOMAINS = (
    common,
    tools,
    tool_descriptions,
    background,
    loop,
    working,
    guards,
    compaction,
    search_agent,
    resume,
    permissions,
    mcp,
    sandbox,
    network,
    redaction,
    audit,
    runs,
    changes,
    delivery,
    settings,
    lsp,
    lsp_loop,
    rendered,
    acp,
    demo,
    doctor,
    editors,
)


def _merge() -> Mapping[str, tuple[str, str]]:
    merged: dict[str, tuple[str, str]] = {}
    for module in _DOMAINS:
        for key, pair in module.MESSAGES.items():
            if key in merged:
                raise RuntimeError(f"duplicate message key {key!r} in {module.__name__}")
            merged[key] = pair
    return MappingProxyType(merged)


MESSAGES: Final = _merge()


def is_locale(value: object) -> TypeGuard[Locale]:
    """Tell whether a setting names a locale the catalog has."""
    return value in LOCALES


def text(key: str, locale: Locale = DEFAULT_LOCALE, /, **fields: object) -> str:
    """Return the sentence `key` in `locale`, with `{placeholders}` filled from `fields`.

    An unknown key is a programming error and raises KeyError: a missing sentence must fail a
    test, not reach a user as a raw key.
    """
    en, zh = MESSAGES[key]
    template = zh if locale == "zh-TW" else en
    return template.format(**fields) if fields else template


def reset_command(editor: Editor, locale: Locale = DEFAULT_LOCALE, /) -> str:
    """How `editor` names the command that starts a fresh conversation (the seed's `/reset`),
    in `locale`: what a sentence's `{reset}` says."""
    return text(f"editor.reset.{editor}", locale)
