"""The conformance suite's fixtures: the scripted agent of the LSP tests."""

from tests.lsp.conftest import scripted_agent

__all__ = ["scripted_agent"]
