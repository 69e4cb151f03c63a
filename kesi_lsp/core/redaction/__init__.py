"""Secrets never leave: one redactor for every text a tool hands back (issue 29, seed Day 11).

What it replaces: the exact values of the credential variables of the server's own environment
(the ones the sandbox scrubs, so a command cannot print them through a file or a config dump
either), and the known token formats of `patterns`. Each becomes the catalog's marker
(`[redacted: GitHub token]`), which keeps the text's shape readable for the model.

Cost: one pass of an Aho-Corasick automaton finds where every pattern's anchors start
(`anchors.py`), a pattern's regular expression is tried only there, and one substring search
per value (`bench/redaction.py` measures it per 100 KB of output).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import lru_cache
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.redaction.anchors import AnchorSearch
from kesi_lsp.core.redaction.patterns import PATTERNS, TokenPattern
from kesi_lsp.core.sandbox.env import is_sensitive

Span = tuple[int, int, int, str]
"""Where a match's replaced part starts and ends, its pattern's rank, its marker."""
MIN_VALUE_LENGTH = 8
"""Shorter values (`1`, `true`, `dev`) would redact ordinary words; no real secret is that short."""

ANCHORS: Final = tuple(dict.fromkeys(a for pattern in PATTERNS for a in pattern.anchors))
"""Every distinct anchor once (`sk` serves Anthropic, OpenAI and Stripe)."""
_STARTS: Final = AnchorSearch(ANCHORS)
"""Every start of every anchor, in one pass (`anchors.py`)."""


class Redactor:
    """Replaces the given secret values and every known token shape by the locale's markers."""

    def __init__(self, values: Mapping[str, str], locale: Locale) -> None:
        # Longest first: a value that contains another is replaced whole.
        ordered = sorted(values.items(), key=lambda item: -len(item[1]))
        self._values = tuple(
            (value, _marker(text("redaction.kind.environment", locale, name=name), locale))
            for name, value in ordered
            if len(value) >= MIN_VALUE_LENGTH
        )
        # Per anchor, the patterns it starts, each with its rank in PATTERNS (of two matches
        # at one place, the earlier pattern's marker wins) and its marker.
        tried: dict[str, list[tuple[int, TokenPattern, str]]] = {a: [] for a in ANCHORS}
        for rank, pattern in enumerate(PATTERNS):
            marker = _marker(text(f"redaction.kind.{pattern.kind}", locale), locale)
            for anchor in pattern.anchors:
                tried[anchor].append((rank, pattern, marker))
        self._by_anchor = tuple(tuple(tried[anchor]) for anchor in ANCHORS)

    def __call__(self, content: str) -> str:
        """`content` with every secret replaced; the same string object when there is none."""
        for value, marker in self._values:
            if value in content:
                content = content.replace(value, marker)
        spans: list[Span] = []
        for index, at in _STARTS(content):
            for rank, pattern, marker in self._by_anchor[index]:
                if at and content[at - 1] in pattern.edge:
                    continue
                match = pattern.regex.match(content, at)
                if match is not None:
                    spans.append((*match.span(pattern.group), rank, marker))
        return _replace(content, spans) if spans else content


def _marker(kind: str, locale: Locale) -> str:
    return text("redaction.marker", locale, kind=kind)


def _replace(content: str, spans: list[Span]) -> str:
    """`content` with each span replaced by its marker; of overlapping spans the first wins
    (the one starting first, then the longest, then the earlier pattern)."""
    pieces: list[str] = []
    done = 0
    for start, end, _rank, marker in sorted(spans, key=lambda span: (span[0], -span[1], span[2])):
        if start < done:
            continue
        pieces += [content[done:start], marker]
        done = end
    pieces.append(content[done:])
    return "".join(pieces)


def secret_values(environ: Mapping[str, str], named: Collection[str] = ()) -> dict[str, str]:
    """The credential variables of `environ` (those the sandbox scrubs, and the `named` ones:
    what the user passes through with `passEnv` is theirs to use, never the model's to read),
    with their values."""
    return {n: v for n, v in environ.items() if n in named or is_sensitive(n, v)}


@lru_cache(maxsize=16)
def _cached(items: tuple[tuple[str, str], ...], locale: Locale) -> Redactor:
    return Redactor(dict(items), locale)


def redactor_for(
    environ: Mapping[str, str], locale: Locale, named: Collection[str] = ()
) -> Redactor:
    """The redactor of a host environment (and the user's `named` variables): built once per
    environment, names and locale."""
    return _cached(tuple(sorted(secret_values(environ, named).items())), locale)


def redact(
    content: str, environ: Mapping[str, str], locale: Locale, named: Collection[str] = ()
) -> str:
    """`content` with the secrets of `environ` and every known token shape replaced."""
    return redactor_for(environ, locale, named)(content)
