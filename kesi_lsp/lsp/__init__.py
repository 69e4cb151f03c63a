"""The LSP adapter: translates LSP requests into core calls and core events into LSP messages."""
