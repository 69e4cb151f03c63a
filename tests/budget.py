"""How much the slower checks may cost: everything in `./dev test`, a taste in `./dev test --fast`.

`./dev test --fast` sets KESI_TEST_FAST=1. Property tests then try a handful of examples
instead of hundreds (the full run still tries them all, so nothing is checked less where it
counts); tests parametrized over many LSP presets run on a taste of them (`TASTE`); everything
else runs exactly as in the full run.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence

import pytest

FAST = os.environ.get("KESI_TEST_FAST") == "1"
FAST_EXAMPLES = 12


def examples(full: int) -> int:
    """The number of examples a property test tries: `full`, or a few in the fast loop."""
    return min(full, FAST_EXAMPLES) if FAST else full


TASTE = frozenset({"vscode+kesi", "neovim+kesi", "neovim", "eglot", "vim-lsp"})
"""The presets a per-preset test runs on in the fast loop: our two thin clients, a recorded
editor without them, and two generic clients (one that answers prompts, one that cannot)."""
TASTE_ABOVE = 3
"""A test over more presets than this runs only its `TASTE` ones in the fast loop."""


def beyond_the_taste(items: Sequence[pytest.Item]) -> list[pytest.Item]:
    """The fast loop's leftovers: per-preset cases outside `TASTE` of tests over many presets.

    Why: a test parametrized over all 13 LSP presets starts 13 servers, and the full run (and
    CI) still runs every one; the fast loop is for the edit-test cycle, where one of each kind
    of client finds what the other eight would.
    """
    if not FAST:
        return []
    presets: dict[tuple[str, str], set[str]] = defaultdict(set)
    for item in items:
        preset = _preset(item)
        if preset is not None:
            presets[_function(item)].add(preset)
    return [
        item
        for item in items
        if (preset := _preset(item)) is not None
        and preset not in TASTE
        and len(presets[_function(item)]) > TASTE_ABOVE
        and presets[_function(item)] & TASTE
    ]


def _preset(item: pytest.Item) -> str | None:
    callspec = getattr(item, "callspec", None)
    preset = callspec.params.get("preset") if callspec is not None else None
    return preset if isinstance(preset, str) else None


def _function(item: pytest.Item) -> tuple[str, str]:
    return (item.nodeid.split("::", 1)[0], getattr(item, "originalname", item.name))
