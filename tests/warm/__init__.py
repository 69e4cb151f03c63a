"""Test workers started from a warm process (`./dev test --fast`): see `server`."""
