"""KeSi LSP: the KeSi coding agent inside any editor that speaks the Language Server Protocol."""

__version__ = "0.1.0"
