"""Benchmark: what redacting a tool's output costs (issue 29: under 1 ms per 100 KB).

Every tool result passes the redactor (`kesi_lsp.core.redaction`) before it leaves, so its cost
is added to every command, read and grep. Three 100 KB outputs are measured: ordinary build and
test output with paths, URLs, hashes and UUIDs but no secret (the common case), the same with a
dozen tokens of several kinds sprinkled in (every pattern's regex then runs), and a mix of a
compiler's log, an `env` dump and `npm ls --json`-like JSON with some non-ASCII text (a
localized message, box drawing), which takes the redactor's slower non-ASCII path. The same-run
baseline is one plain pass over the text (`str.count`), the least any scan costs.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable

from bench.report import Figure, Report
from kesi_lsp.core.redaction import Redactor

NAME = "redaction"
SIZE = 100_000
LIMIT_MS = 1.0


def _ordinary(size: int) -> str:
    lines: list[str] = []
    n = 0
    while n * 80 < size * 1.2:
        digest = hashlib.sha1(str(n).encode()).hexdigest()
        lines.append(
            f"tests/test_mod_{n % 97}.py::test_case_{n} PASSED [{n % 100:3d}%] {digest[:12]}"
        )
        if n % 7 == 0:
            lines.append(f"  fetched https://pypi.org/simple/pkg-{n}/ id={uuid.UUID(int=n)}")
        n += 1
    return "\n".join(lines)[:size]


def _mixed(size: int) -> str:
    """A build log, an environment dump and JSON, with some non-ASCII text in the log."""
    lines: list[str] = []
    n = 0
    while sum(map(len, lines)) < size * 1.2:
        lines += [
            f"[{n:4d}/2048] gcc -O2 -Wall -Iinclude -c src/mod_{n}.c -o build/mod_{n}.o",
            f"src/mod_{n}.c:{n % 300}:7: warning: unused variable ‘tmp_{n}’ [-Wunused-variable]",
            f"│ ├── lib-{n}@1.{n % 10}.0 — 已安裝",
            f"XDG_SESSION_{n}=wayland",
            f"PATH_{n}=/usr/local/bin:/usr/bin:/home/dev/.local/bin",
            f'  "pkg-{n}": {{"version": "2.{n % 40}.1", "resolved": '
            f'"https://registry.npmjs.org/pkg-{n}/-/pkg-{n}-2.{n % 40}.1.tgz"}},',
        ]
        n += 1
    return "\n".join(lines)[:size]


def _with_tokens(base: str) -> str:
    tokens = [
        "sk-ant-api03-" + "x" * 93 + "AA",
        "ghp_" + "A1b2" * 9,
        "https://deploy:hunter2@git.example.com/app.git",
        "AKIA" + "ABCDEFGH23456789",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXBhcnQ",
        "aws_secret_access_key = " + "a/B+" * 10,
    ]
    step = len(base) // 13
    parts = [base[i : i + step] for i in range(0, len(base), step)]
    mixed = [part + "\n" + tokens[i % len(tokens)] for i, part in enumerate(parts[:12])]
    return "\n".join(mixed + parts[12:])[:SIZE]


def _best_ms(function: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best * 1000


async def run(report: Report, *, smoke: bool) -> None:
    rounds = 30 if smoke else 200
    redactor = Redactor({"DEPLOY_TOKEN": "deploy-token-value-1234"}, "en")
    ordinary = _ordinary(SIZE)
    sprinkled = _with_tokens(ordinary)
    assert "ghp_" not in redactor(sprinkled) and "hunter2" not in redactor(sprinkled)
    baseline = _best_ms(lambda: ordinary.count("\n"), rounds)
    outputs = (
        ("no secret", ordinary),
        ("a dozen tokens", sprinkled),
        ("a build log, env dump and JSON, not all ASCII", _mixed(SIZE)),
    )
    for label, content in outputs:
        cost = _best_ms(lambda content=content: redactor(content), rounds)
        report.add(
            Figure(
                NAME,
                f"redacting 100 KB of command output ({label}) per 100 KB",
                cost,
                "ms",
                LIMIT_MS,
                baseline=f"one plain pass over the text (str.count) {baseline:.3f} ms",
                note=f"best of {rounds} rounds",
            )
        )
