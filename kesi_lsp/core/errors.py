"""Errors the core raises on purpose. Tools never raise these for user input: they return
error results for the model instead. These are for the host (the LSP adapter, the demo)."""

from __future__ import annotations


class KesiError(Exception):
    """Base of every error the core raises deliberately."""


class MissingApiKeyError(KesiError):
    """No API key in the settings or the environment: the agent cannot call the model."""


class SandboxUnavailableError(KesiError):
    """The `sandbox` setting asks for a sandbox this machine does not have."""
