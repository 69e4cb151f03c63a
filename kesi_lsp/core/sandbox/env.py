"""The child's environment (seed Days 11 and 15), and the host facts the sandbox reads from it.

Credential variables are removed by pattern, not by a short list (issue 29: a probe found
`NPM_CONFIG__AUTH`, `GH_PAT`, `MYSQL_PWD`, `BW_SESSION`, `SENTRY_DSN` slipping through a list):
a name is withheld when it contains one of `SENSITIVE_PARTS` as a word part (`_PAT` is a part of
`GH_PAT` and `GH_PAT_2`, not of `LD_LIBRARY_PATH`; `AUTH` of `NPM_CONFIG__AUTH`, not of
`GIT_AUTHOR_NAME`), and a `_URL`/`_URI`/`_PROXY` variable when its value carries a credential (a
password or token in the URL). `PUBLIC_NAMES` are the look-alikes every desktop sets and that
toolchains read (`PWD`, `XDG_SESSION_TYPE`, `TOKENIZERS_PARALLELISM`). The user's `passEnv`
setting passes named variables through on purpose; their values are still redacted from what a
command prints (`core.redaction`). This stops accidental leaks into the transcript (`env`,
`echo $X`); it is not confinement. The core never reads `os.environ`: the host passes its
environment in, and `HOME` comes from that mapping.
"""

from __future__ import annotations

import os
import pwd
import re
from collections.abc import Collection, Mapping
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
        "NPM_CONFIG__AUTH",
        "NPM_CONFIG__AUTHTOKEN",
        "OPENAI_KEY",
        "GH_PAT",
        "PGPASSWORD",
        "MYSQL_PWD",
        "JWT_SECRET_KEY",
        "SECRET_KEY_BASE",
        "PRIVATE_KEY",
        "BW_SESSION",
        "SENTRY_DSN",
        "MONGODB_URI",
    }
)
"""Named outright (the issue's probe): each also matches a pattern below, kept as the list a
test and a reader can check against."""

SENSITIVE_PARTS: Final = (
    r"TOKEN",
    r"SECRET",
    r"PASSWORD",
    r"PASSWD",
    r"PWD",
    r"(?:^|_)KEY(?:_|$)",
    r"(?:^|_)[A-Z]*KEY$",
    r"APIKEY",
    r"(?:^|_)PAT(?:_|$)",
    r"AUTH(?!OR)",
    r"SESSION",
    r"CREDENTIAL",
    r"PRIVATE",
    r"DSN",
    r"(?:^|_)SK(?:_|$)",
)
"""Name parts, upper-cased: `TOKEN` anywhere, `_KEY` as a word (`OPENAI_KEY`, `JWT_SECRET_KEY`,
`AWS_ACCESS_KEY_ID`, `SSHKEY`), `_PAT` as a word, `AUTH` but not `AUTHOR`, `SK` as a word
(`STRIPE_SK`). `OP_SESSION_<account>` is `SESSION`."""
_SENSITIVE: Final = re.compile("|".join(SENSITIVE_PARTS))

PUBLIC_NAMES: Final = frozenset(
    {
        "PWD",
        "OLDPWD",
        "XDG_SESSION_TYPE",
        "XDG_SESSION_CLASS",
        "XDG_SESSION_DESKTOP",
        "XDG_SESSION_ID",
        "DESKTOP_SESSION",
        "TOKENIZERS_PARALLELISM",
        "KEYTIMEOUT",
    }
)
"""Names that match a part but carry no secret, and that shells and toolchains read."""

URL_NAME: Final = re.compile(r"(?:URL|URI|PROXY|ENDPOINT|HOST|ADDR(?:ESS)?)$")
CREDENTIAL_VALUE: Final = re.compile(
    r"://[^\s/@]+@"  # user:password@ or token@ (RFC 3986 §3.2.1 userinfo)
    r"|[?&;](?:password|passwd|pwd|pass|token|access_token|api_?key|key|secret|sig|signature|"
    r"auth|X-Amz-Credential|X-Amz-Signature)=[^&\s]",
    re.IGNORECASE,
)


def is_sensitive(name: str, value: str = "") -> bool:
    """Tell whether a variable carries a credential: by its name (case-insensitive), or, for a
    URL-like name (`MONGODB_URI`, `HTTPS_PROXY`), by a credential in its value."""
    upper = name.upper()
    if upper in SENSITIVE_ENV_NAMES:
        return True
    if upper in PUBLIC_NAMES:
        return False
    if _SENSITIVE.search(upper):
        return True
    return bool(URL_NAME.search(upper) and CREDENTIAL_VALUE.search(value))


def withheld_names(base: Mapping[str, str], passed: Collection[str] = ()) -> tuple[str, ...]:
    """The variables of `base` a command does not get (sorted): what the prompt names."""
    return tuple(sorted(n for n, v in base.items() if n not in passed and is_sensitive(n, v)))


def scrub_environment(base: Mapping[str, str], passed: Collection[str] = ()) -> dict[str, str]:
    """Return a copy of `base` without credential variables, except the `passed` ones."""
    return {n: v for n, v in base.items() if n in passed or not is_sensitive(n, v)}


def passed_variables(base: Mapping[str, str], passed: Collection[str]) -> dict[str, str]:
    """The variables of `base` that the user's `passEnv` names and the scrub would remove."""
    return {n: base[n] for n in passed if n in base and is_sensitive(n, base[n])}


def home_from(environ: Mapping[str, str]) -> Path:
    """The user's home (resolved): `HOME` from the host's environment, else the password file."""
    home = environ.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir
    return Path(home).resolve()
