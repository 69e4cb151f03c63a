"""The delivery conformance suite: what every workspace view does with an agent's edit.

Design §2.7's invariants, for any front end: I1 an accepted edit leaves disk == buffer == the
agent's intent; I2 it is on the editor's undo stack; I3 a rejected edit changes nothing and the
model learns it was rejected; I4 what the user typed (or a command wrote) after the agent read
the file is never overwritten, and the model is told to read it again. And the bad cases an
editor brings: the buffer changed during the review, the disk changed during it, a client that
answers "applied" without changing anything, a client that fails, a cancel mid-review.

A view under test (`ViewUnderTest`) plays one `Case` through its real wire -- the LSP server
with a scripted editor, `kesi-lsp acp` with a scripted ACP client, the plain-disk view in
process -- and reports what the user and the model would see (`Seen`); `check` holds that to
the invariants. The suite says only what must hold; each view says how its editor does "the
user types while the review is open". It needs nothing of KeSi's server or core.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

FILE: Final = "calc.py"
BEFORE: Final = "def add(a, b):\n    return a - b\n"
OLD, NEW = "return a - b", "return a + b"
AFTER: Final = BEFORE.replace(OLD, NEW)
TYPED: Final = BEFORE.replace("def add", "def plus")
"""The buffer after the user's typing during the review (not in the region the edit replaces:
even so the edit is refused, since its review showed the text before the typing)."""
COMMANDED: Final = BEFORE.replace(OLD, OLD + "  # a command rewrote this")
"""The disk after a command rewrote the file during the review."""


class Review(enum.Enum):
    """What the user does with the review."""

    ACCEPT = "accept"
    REJECT = "reject"
    TYPE = "type"  # types into the file while the review is open, then accepts
    DISK = "disk"  # a command rewrites the file on disk while the review is open; accepts
    CANCEL = "cancel"  # cancels the run while the review is open


class Client(enum.Enum):
    """How the client carries out the edit once accepted."""

    HONEST = "honest"
    IGNORES = "ignores"  # answers that it applied the edit, and changes nothing
    ERRORS = "errors"  # answers the apply (or write) with an error


@dataclass(frozen=True)
class Case:
    """One delivery of the edit `OLD` -> `NEW` in `FILE` (which holds `BEFORE`, and is `open`
    in the editor or not), reviewed as `review` by a client that behaves as `client`."""

    name: str
    review: Review = Review.ACCEPT
    client: Client = Client.HONEST
    open: bool = True


CASES: Final[tuple[Case, ...]] = (
    Case("accepted"),
    Case("accepted-closed", open=False),
    Case("rejected", Review.REJECT),
    Case("typed-during-review", Review.TYPE),
    Case("disk-changed-during-review", Review.DISK),
    Case("disk-changed-during-review-closed", Review.DISK, open=False),
    Case("applied-without-a-change", client=Client.IGNORES),
    Case("client-error", client=Client.ERRORS),
    Case("cancelled-mid-review", Review.CANCEL),
)


@dataclass(frozen=True)
class Seen:
    """What became of a case, as the user and the model see it.

    `outcome`: "applied", "rejected", "failed" (the tool's result) or "cancelled" (the run
    ended before the edit's result). `told`: the edit's result as the model read it.
    `disk`: the file on disk afterwards (None: no file). `shown`: what the editor shows
    (None: no editor holds it). `undoable`: the edit is on the editor's undo stack (None: this
    view has no undo stack the test can see)."""

    outcome: str
    told: str
    disk: str | None
    shown: str | None
    undoable: bool | None = None


class ViewUnderTest(Protocol):
    """One front end's workspace view, driven through its real wire."""

    @property
    def name(self) -> str: ...

    @property
    def unsupported(self) -> Mapping[str, str]:
        """Case name -> why this view cannot meet it (plain disk has no client to misbehave)."""
        ...

    async def run(self, case: Case, root: Path) -> Seen:
        """Put `BEFORE` in `root / FILE`, play `case` through the view, report what is seen."""
        ...


def check(case: Case, seen: Seen) -> None:
    """Assert the invariants of design §2.7 for `case` on what was `seen`."""
    if case.review is Review.ACCEPT and case.client is Client.HONEST:
        assert seen.outcome == "applied", seen  # I1: disk == buffer == intent
        assert seen.disk == AFTER, seen
        assert seen.shown in (None, AFTER), seen
        assert seen.undoable is not False, seen  # I2
        return
    _nothing_overwritten(case, seen)
    if case.review is Review.CANCEL:
        assert seen.outcome == "cancelled", seen
        return
    if case.review is Review.REJECT:  # I3: nothing changed, and the model knows it was no
        assert seen.outcome == "rejected", seen
        assert seen.told, seen
        return
    if case.client is Client.ERRORS:  # an error answer may be the user's no (Eglot's)
        assert seen.outcome in ("failed", "rejected"), seen
        assert seen.told, seen
        return
    assert seen.outcome == "failed", seen  # I4: refused, and the model reads the file again
    assert "read" in seen.told.lower(), seen


def _nothing_overwritten(case: Case, seen: Seen) -> None:
    """Whatever failed, the user's text and the command's are where they were."""
    disk = COMMANDED if case.review is Review.DISK else BEFORE
    assert seen.disk == disk, seen
    if case.review is Review.TYPE:
        assert seen.shown == TYPED, seen  # the user's typing, never overwritten
    elif case.review is Review.DISK:
        assert seen.shown in (None, BEFORE, COMMANDED), seen  # reloaded or not
    else:
        assert seen.shown in (None, BEFORE), seen
    assert not seen.undoable, seen
