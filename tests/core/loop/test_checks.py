"""Which commands verify code: their exit code must be the check's own."""

from __future__ import annotations

import pytest

from kesi_lsp.core.verification.checks import is_check


@pytest.mark.parametrize(
    "command",
    [
        "pytest -q",
        "python -m pytest -v",
        "python3.11 -m unittest discover",
        ".venv/bin/python -m pytest tests/test_rates.py",
        "cd app && npm test",
        "npm run build",
        "yarn lint",
        "pnpm run typecheck",
        "cargo test",
        "go vet ./...",
        "make",
        "make test",
        "mypy src",
        "ruff check .",
        "ruff format --check .",
        "black --check .",
        "PYTHONPATH=src pytest",
        "uv run pytest -x",
        "timeout 60 pytest",
        "env CI=1 npx jest",
        "tsc --noEmit",
    ],
)
def test_checks(command: str) -> None:
    assert is_check(command)


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "git status",
        "cat rates.py",
        "pytest -q | tail -5",
        "pytest || true",
        "pytest; echo done",
        "python rates.py",
        "npm install",
        "npm run dev",
        "make clean",
        "ruff format .",
        "black .",
        "echo 'pytest'",
        "pytest 'unterminated",
        "",
    ],
)
def test_not_checks(command: str) -> None:
    assert not is_check(command)
