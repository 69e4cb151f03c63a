"""The child's environment (seed Days 11 and 15), and the host facts the sandbox reads from it.

Credential-looking variables are removed: this stops accidental leaks into the transcript
(`env`, `echo $X`); it is not confinement, and it matches names, not values (`OPENAI_KEY`,
`STRIPE_SK` and `GH_PAT` slip through, as the seed admits). The core never reads `os.environ`:
the host passes its environment in, and `HOME` comes from that mapping.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Mapping
from pathlib import Path
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


def home_from(environ: Mapping[str, str]) -> Path:
    """The user's home (resolved): `HOME` from the host's environment, else the password file."""
    home = environ.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir
    return Path(home).resolve()
