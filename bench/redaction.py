"""Benchmark: what redacting a tool's output costs (issue 29: under 1 ms per 100 KB).

Every tool result passes the redactor (`kesi_lsp.core.redaction`) before it leaves, so its cost
is added to every command, read and grep. Two 100 KB outputs are measured: ordinary build and
test output with paths, URLs, hashes and UUIDs but no secret (the common case), and the same
with a dozen tokens of several kinds sprinkled in (every pattern's regex then runs). The
same-run baseline is one plain pass over the text (`str.count`), the least any scan costs.
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
    for label, content in (("no secret", ordinary), ("a dozen tokens", sprinkled)):
        cost = _best_ms(lambda content=content: redactor(content), rounds)
        report.add(
            Figure(
                NAME,
                f"redacting 100 KB of command output ({label}) per 100 KB",
                cost,
                "ms",
                LIMIT_MS,
                baseline=f"one plain pass over the text (str.count) {baseline:.3f} ms",
                note=f"best of {rounds} rounds; not met yet: printed, not checked in CI",
                # 1.4-1.7 ms per 100 KB against 1 ms (issue 29 stays open for it): one str.find
                # per anchor is most of the cost, as bench/README says.
                ci=False,
            )
        )
