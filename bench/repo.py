"""A generated repository of real text at scale: 100,000 files, 2 GB, in a temp folder.

Every byte is text that ripgrep has to read (no sparse files, no NUL bytes: rg would skip a
binary file after its first block, which would make grep look faster than it is). Files are
cut from one pre-built pool of source-like lines at varying offsets, so writing 2 GB costs
little more than the disk writes. Each file starts with its own path, so no two are equal.

Layout (full size):
- `pkg_00/mod_00/f_0000.py` ... : 94,899 source files (.py 60%, .js, .ts, .md, .txt, .json), 1,000
  folders, ~15.7 KB each on average;
- `generated/g_0000.py` ... : 5,000 small files in one folder (a wide directory to list);
- `data/log_000.log` ... : 100 logs of 5 MB each (grep must read them; read_file refuses them);
- `pkg_00/big_module.py`: 250 KB, just under read_file's limit (the largest file it returns).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

RARE = "kesi_needle_7f3a9c"  # in 3 files
COMMON = "import"  # twice in every source file (~190,000 lines), as imports are in real code

EXTENSIONS = (".py",) * 12 + (".js",) * 3 + (".ts", ".md", ".txt", ".json", ".py")


@dataclass(frozen=True)
class Shape:
    files: int  # in total
    pkgs: int
    mods: int  # per package
    wide: int  # files in generated/
    logs: int
    log_bytes: int
    mean_bytes: int  # average size of a source file

    @property
    def source_files(self) -> int:
        return self.files - self.wide - self.logs - 2  # README.md, big_module.py


FULL = Shape(
    files=100_000, pkgs=20, mods=50, wide=5_000, logs=100, log_bytes=5_000_000, mean_bytes=15_700
)
SMOKE = Shape(
    files=6_000, pkgs=4, mods=10, wide=1_000, logs=4, log_bytes=5_000_000, mean_bytes=8_000
)

_WORDS = [
    "value",
    "result",
    "order",
    "item",
    "price",
    "total",
    "discount",
    "member",
    "level",
    "rule",
    "table",
    "shipping",
    "fee",
    "amount",
    "count",
    "index",
    "name",
    "path",
    "data",
    "config",
    "cache",
    "client",
    "server",
    "request",
    "response",
    "token",
    "buffer",
    "stream",
    "event",
    "handler",
    "session",
    "history",
    "record",
    "entry",
    "update",
    "parse",
    "format",
    "render",
]


def _pool(rng: random.Random, size: int) -> bytes:
    """Source-like lines: defs, returns, comments (~`size` bytes); no `import` (see COMMON)."""
    lines: list[str] = []
    total = 0
    while total < size:
        a, b, c = rng.choice(_WORDS), rng.choice(_WORDS), rng.choice(_WORDS)
        kind = rng.random()
        if kind < 0.12:
            line = f"def {a}_{b}({c}, {a}=None):"
        elif kind < 0.30:
            line = f"    return {a}.{b}({c}) + {rng.randint(0, 999)}"
        elif kind < 0.40:
            line = f"    # {a} {b} {c}: keep the {a} in step with the {b}"
        elif kind < 0.42:
            line = f"    raise ValueError('{a} {b}')"
        elif kind < 0.70:
            line = f"    {a}_{b} = {c}[{rng.randint(0, 99)}] * {rng.random():.4f}"
        elif kind < 0.85:
            line = f"    if {a} > {b}:"
        else:
            line = f"        {a}.append({b}_{c})"
        lines.append(line)
        total += len(line) + 1
    return ("\n".join(lines) + "\n").encode()


def _write(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _slice(pool: bytes, rng: random.Random, size: int) -> bytes:
    """About `size` bytes of whole lines from `pool`, starting at a random line."""
    start = pool.find(b"\n", rng.randrange(0, len(pool) - size - 1)) + 1
    end = pool.find(b"\n", start + size) + 1
    return pool[start:end]


def generate(root: Path, shape: Shape, seed: int = 9) -> dict[str, object]:
    """Write the repository under `root` (created); return what was written."""
    rng = random.Random(seed)
    pool = _pool(rng, 8_000_000)
    total = 0
    files = 0
    root.mkdir(parents=True)
    readme = b"# generated\nA repository for KeSi's benchmarks.\n"
    _write(root / "README.md", readme)
    total += len(readme)
    files += 1
    per_dir = shape.source_files // (shape.pkgs * shape.mods)
    extra = shape.source_files - per_dir * shape.pkgs * shape.mods
    rare_at = {rng.randrange(shape.source_files) for _ in range(3)}
    n = 0
    for p in range(shape.pkgs):
        for m in range(shape.mods):
            folder = root / f"pkg_{p:02d}" / f"mod_{m:02d}"
            folder.mkdir(parents=True)
            count = per_dir + (1 if p * shape.mods + m < extra else 0)
            for i in range(count):
                ext = EXTENSIONS[rng.randrange(len(EXTENSIONS))]
                name = f"f_{i:04d}{ext}"
                size = int(rng.expovariate(1 / shape.mean_bytes)) + 200
                size = min(size, 400_000)
                head = f"# pkg_{p:02d}/mod_{m:02d}/{name}\nimport os\nimport sys\n"
                if n in rare_at:
                    head += f"{RARE} = True\n"
                data = head.encode() + _slice(pool, rng, size)
                _write(folder / name, data)
                total += len(data)
                files += 1
                n += 1
    wide = root / "generated"
    wide.mkdir()
    for i in range(shape.wide):
        data = f"# generated/g_{i:04d}.py\n".encode() + _slice(pool, rng, 2_000)
        _write(wide / f"g_{i:04d}.py", data)
        total += len(data)
        files += 1
    logs = root / "data"
    logs.mkdir()
    for i in range(shape.logs):
        data = _slice(pool, rng, shape.log_bytes)
        _write(logs / f"log_{i:03d}.log", data)
        total += len(data)
        files += 1
    big = b"# pkg_00/big_module.py\nimport os\n" + _slice(pool, rng, 250_000)
    _write(root / "pkg_00" / "big_module.py", big)
    total += len(big)
    files += 1
    return {"files": files, "bytes": total, "rare_files": len(rare_at)}
