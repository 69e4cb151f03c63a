"""What each step of a delivery ends with (design §2.7: review, apply, save, verify).

A step either hands the next one what it needs (`Checked`, `Landed`, `Saved`) or ends the
delivery with its final `Delivery` (a refusal or a failure the model is told about, in the
run's locale). Nothing is a bare None or a bool that a reader has to decode.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import Delivery, DeliveryStatus


def failed(key: str, locale: Locale, **fields: object) -> Delivery:
    """A delivery that changed nothing (or could not finish), saying why in `key`'s words."""
    return Delivery(DeliveryStatus.FAILED, reason=text(key, locale, **fields))


@dataclass(frozen=True)
class Checked:
    """The change still fits what the user sees; `disk_before` is what the disk held then
    (the save step writes only over that)."""

    disk_before: str | None


@dataclass(frozen=True)
class Landed:
    """The change reached the editor's buffer, or the disk when the server wrote it itself.

    `kept`: after the editor's preview, the text the user kept when they ticked only part of
    the change (None: all of it)."""

    kept: str | None = None


class Saved(enum.Enum):
    """How the change reached the disk (or did not)."""

    ALREADY = "already"  # the disk held it already (the server wrote it, or the editor saved)
    BY_EDITOR = "editor"  # `kesi/saveDocuments`: the editor saved, and may have reformatted
    BY_SERVER = "server"  # the server wrote the same bytes itself (the core's atomic write)
    NOT_SAVED = "not saved"  # the disk moved meanwhile, or the editor could not save
