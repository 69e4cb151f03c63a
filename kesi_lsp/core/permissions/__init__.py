"""The permission gate: deny first, then ask, then allow (seed Day 14).

`PermissionGate` is what the tools consult before anything that changes the world: a shell
command (classified by `policy.classify`, maybe asked) or a file write (reviewed unless the file
has a session grant). The order is the seed's and cannot be bent:

1. deny: the red line. The user is never asked; no grant, no answer, no setting lets it run.
2. ask: a session grant for this exact command string lets it run; otherwise the approver asks,
   and anything but an explicit yes (a missing UI, an error, a closed editor) is a no.
3. allow: the short read-only list, every segment of it.

The answer is typed (`Allowed` / `Refused`, from `kesi_lsp.core.approval`); a refusal carries the
text for the model (an error tool result), in the seed's words, with the instruction not to send
the same request again.

Classifying a command may touch the filesystem (resolving paths against the workspace and the
home directory), so it runs in a worker thread: the host's event loop stays free.

Writes: in the seed the write permission was asked *before* validation. Here edit_file and
write_file validate first and then hand the finished change to the editor, which shows it as a
diff; `needs_review` tells them whether that review is needed (no session grant for the file),
and `remember_file` records "allow for this session" when the user accepts one. Under the
`approvals` setting "acceptEdits" no write needs review (Claude Code's mode of that name); the
command gate above is the same in every mode.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

_EXPORTS: Final = {
    "GrantsView": "kesi_lsp.core.permissions.grants",
    "PermissionGate": "kesi_lsp.core.permissions.gate",
    "PromptInterrupted": "kesi_lsp.core.approval",
    "CommandVerdict": "kesi_lsp.core.permissions.policy",
    "classify": "kesi_lsp.core.permissions.policy",
    "describe_grants": "kesi_lsp.core.permissions.grants",
    "grants_lines": "kesi_lsp.core.permissions.grants",
    "home_from": "kesi_lsp.core.sandbox.env",
    "revoke": "kesi_lsp.core.permissions.grants",
    "revoked_line": "kesi_lsp.core.permissions.grants",
}
"""Each name's module, loaded on first use: the classifier (the red line, the read-only list)
is most of this package's import time, and a server being started needs none of it
(benchmark 4)."""

__all__ = [
    "CommandVerdict",
    "GrantsView",
    "PermissionGate",
    "PromptInterrupted",
    "classify",
    "describe_grants",
    "grants_lines",
    "home_from",
    "revoke",
    "revoked_line",
]


def __getattr__(name: str) -> object:
    """Load `name` from its module on first use (and keep it, so this runs once per name)."""
    where = _EXPORTS.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from kesi_lsp.core.approval import PromptInterrupted
    from kesi_lsp.core.permissions.gate import PermissionGate
    from kesi_lsp.core.permissions.grants import (
        GrantsView,
        describe_grants,
        grants_lines,
        revoke,
        revoked_line,
    )
    from kesi_lsp.core.permissions.policy import CommandVerdict, classify
    from kesi_lsp.core.sandbox.env import home_from
