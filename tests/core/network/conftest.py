"""The sandbox playground and the bubblewrap fixture, shared with the sandbox's own tests."""

from tests.core.sandbox.conftest import bwrap, playground

__all__ = ["bwrap", "playground"]
