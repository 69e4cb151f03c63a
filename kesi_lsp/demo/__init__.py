"""`kesi-lsp demo`: watch KeSi fix the seed's Day 13 bug, with this package acting as the editor."""
