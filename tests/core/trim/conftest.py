"""The loop harness (a session, the real SDK, a scripted server) for trimming's loop tests."""

from __future__ import annotations

from tests.core.loop.conftest import make_agent

__all__ = ["make_agent"]
