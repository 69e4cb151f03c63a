"""The demo's own failure: it cannot go on (no pytest, the folder exists, the server broke)."""

from __future__ import annotations


class DemoError(Exception):
    """The demo itself cannot go on; the message says why and what to do."""
