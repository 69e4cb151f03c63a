"""The known token formats, each with where its shape is documented.

A maintained detector library was measured first: detect-secrets 1.5 (Yelp, PyPI) scans line by
line through some twenty plugins plus entropy checks; its `scan_line` over the benchmark's 100 KB
of ordinary output took 10.6 s here, against a budget of 1 ms, and it reports findings rather
than rewriting text. So KeSi keeps its own small set: every pattern starts with one of its
literal `anchors`; the redactor finds every distinct anchor's starts in one pass (`anchors.py`:
one Aho-Corasick automaton; `sk` serves Anthropic, OpenAI and Stripe), and tries the regular
expression only where one starts. A scanning regex is no option: with a look-behind or an
alternation in front, Python's `re` loses its literal-prefix search and costs some 25 ms per
100 KB each.

`group` is the part replaced by the marker (0: the whole match); for a URL only the password goes,
so the model still sees which host and user a command talked to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

_WORD: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_BASE64: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+=")
_END = r"(?![A-Za-z0-9_\-])"


@dataclass(frozen=True)
class TokenPattern:
    kind: str
    """The catalog's `redaction.kind.<kind>`: what the marker calls it."""
    anchors: tuple[str, ...]
    regex: re.Pattern[str]
    """Matched at each place an anchor starts (`re.match` at that index, never a scan)."""
    group: int = 0
    edge: frozenset[str] = frozenset()
    """Characters that may not come right before the anchor (a token starts a word)."""


PATTERNS: Final[tuple[TokenPattern, ...]] = (
    # PEM blocks first: their base64 body may hold anything. RFC 7468 §2 (the BEGIN/END labels);
    # a block cut off by truncated output is redacted to the end.
    TokenPattern(
        "private_key",
        ("-----BEGIN",),
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r".*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
            re.DOTALL,
        ),
    ),
    # Anthropic: `sk-ant-api03-…`, `sk-ant-admin01-…` (Anthropic console key format; gitleaks
    # rules anthropic-api-key / anthropic-admin-api-key).
    TokenPattern("anthropic", ("sk",), re.compile(r"sk-ant-[A-Za-z0-9_\-]{20,}"), edge=_WORD),
    # OpenAI: `sk-proj-…`, `sk-svcacct-…`, `sk-admin-…` and the legacy `sk-…T3BlbkFJ…` (OpenAI
    # API keys page; gitleaks rule openai-api-key). At least 32 characters after `sk-`.
    TokenPattern("openai", ("sk",), re.compile(r"sk-[A-Za-z0-9_\-]{32,}" + _END), edge=_WORD),
    # GitHub: classic `ghp_/gho_/ghu_/ghs_/ghr_` + 36 base62, fine-grained `github_pat_` + 82
    # (GitHub Docs, "About authentication to GitHub", GitHub's token formats).
    TokenPattern(
        "github",
        ("gh", "github_pat_"),
        re.compile(r"(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})" + _END),
        edge=_WORD,
    ),
    # GitLab: `glpat-`, `gldt-`, `glrt-`, `glptt-`, `glsoat-` + 20 (GitLab Docs, "Token overview",
    # token prefixes).
    TokenPattern(
        "gitlab",
        ("gl",),
        re.compile(r"gl(?:pat|dt|rt|ptt|soat)-[A-Za-z0-9_\-]{20,}"),
        edge=_WORD,
    ),
    # Slack: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxo-` (Slack API docs, token types).
    TokenPattern("slack", ("xox",), re.compile(r"xox[abposr]-[A-Za-z0-9\-]{10,}"), edge=_WORD),
    # AWS access key ids: long-term `AKIA` and temporary `ASIA` + 16 (AWS IAM User Guide,
    # "Unique identifier prefixes").
    TokenPattern(
        "aws_access",
        ("AKIA", "ASIA"),
        re.compile(r"(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9/+=])"),
        edge=_BASE64,
    ),
    # AWS secret keys have no prefix: 40 base64 characters after an `aws…secret/key =` label
    # (the credentials file and `env` shapes in the AWS CLI docs; gitleaks rule aws-secret).
    TokenPattern(
        "aws_secret",
        ("aws", "AWS"),
        re.compile(
            r"(?i:aws)[A-Za-z0-9_.\- ]{0,24}?(?i:secret|key)[A-Za-z0-9_.\- ]{0,24}?"
            r"[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        group=1,
    ),
    # Google API keys: `AIza` + 35 (Google Cloud docs, API keys; gitleaks rule gcp-api-key).
    TokenPattern("google", ("AIza",), re.compile(r"AIza[0-9A-Za-z_\-]{35}" + _END), edge=_WORD),
    # Stripe secret and restricted keys: `sk_live_`, `sk_test_`, `rk_live_`, `rk_test_` (Stripe
    # docs, "API keys"); publishable `pk_` keys are public by design.
    TokenPattern(
        "stripe",
        ("sk", "rk_"),
        re.compile(r"[sr]k_(?:live|test)_[0-9A-Za-z]{16,}"),
        edge=_WORD,
    ),
    # npm: `npm_` + 36 (GitHub blog, "npm token format", 2021).
    TokenPattern("npm", ("npm_",), re.compile(r"npm_[A-Za-z0-9]{36}" + _END), edge=_WORD),
    # JWTs: base64url header and payload both start `eyJ` (`{"`), three dot-separated parts
    # (RFC 7519 §3).
    TokenPattern(
        "jwt",
        ("eyJ",),
        re.compile(r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    ),
    # A URL with `user:password@` (RFC 3986 §3.2.1 userinfo): only the password is replaced.
    TokenPattern(
        "url_password",
        ("://",),
        re.compile(r"://[^\s/:@\"'<>]+:([^\s/@\"'<>]+)@"),
        group=1,
    ),
)
