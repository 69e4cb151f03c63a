"""The LSP adapter: translates LSP requests into core calls and core events into LSP messages."""

# The core's permission gate and session import each other; loading the gate first resolves
# the cycle whichever module a caller happens to import first.
import kesi_lsp.core.permissions  # noqa: F401
