"""Remove credential-looking variables from a child's environment (seed Days 11 and 15).

This stops accidental leaks into the transcript (`env`, `echo $X`); it is not confinement.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

SENSITIVE_ENV_NAMES: Final = frozenset(
    {
        "ANTHROPIC_API_KEY",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "DATABASE_URL",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "REDIS_URL",
        "SSH_AUTH_SOCK",
    }
)
SENSITIVE_ENV_SUFFIXES: Final = ("_API_KEY", "_CREDENTIALS", "_PASSWORD", "_SECRET", "_TOKEN")


def is_sensitive(name: str) -> bool:
    """Tell whether a variable name looks like it carries a credential (case-insensitive)."""
    upper = name.upper()
    return upper in SENSITIVE_ENV_NAMES or upper.endswith(SENSITIVE_ENV_SUFFIXES)


def scrub_environment(base: Mapping[str, str]) -> dict[str, str]:
    """Return a copy of `base` without credential-looking variables."""
    return {name: value for name, value in base.items() if not is_sensitive(name)}
