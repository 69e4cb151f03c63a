"""Choose the sandbox for a session, and say honestly what it is (seed Days 15 and 16).

`select_sandbox` follows the `sandbox` setting: `auto` picks what exists (bubblewrap on Linux,
Seatbelt on macOS) and otherwise runs without one; `off` disables it; `bubblewrap` / `seatbelt`
require it and raise `SandboxUnavailableError` with a message saying what to do. A bwrap that
is installed but cannot build a sandbox here (Ubuntu's AppArmor user-namespace restriction, a
container without namespaces) is found out at selection, by starting an empty sandbox once,
not at the first command.

`describe` turns the result into a `SandboxState` for the two audiences: `status_line` for the
user (the seed's start-up line `指令沙箱：...`) and `prompt_lines` for the model's system
prompt (Day 16: off / on / on-but-void, plus the hint about sandbox errors only when a sandbox
is on, because on an unsandboxed machine "Could not resolve host" really is the network).
"Protection you can't see doesn't count."
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.errors import SandboxUnavailableError
from kesi_lsp.core.sandbox import NoSandbox, OffReason, Sandbox, SandboxKind, children
from kesi_lsp.core.sandbox.bubblewrap import (
    BubblewrapSandbox,
    Limits,
    bubblewrap_for,
    parse_version,
)
from kesi_lsp.core.sandbox.env import home_from
from kesi_lsp.core.sandbox.seatbelt import SeatbeltSandbox
from kesi_lsp.core.settings.agent import SandboxMode

PROBE_SECONDS = 10.0
Variant = Literal["on", "void", "off"]


def select_sandbox(
    mode: SandboxMode,
    root: Path,
    environ: Mapping[str, str],
    *,
    locale: Locale = "en",
    limits: Limits | None = None,
    platform: str = sys.platform,
) -> Sandbox:
    """The sandbox the `sandbox` setting asks for, on this machine, for workspace `root`."""
    if mode == "off":
        return NoSandbox("setting")
    path = environ.get("PATH")
    if mode in ("auto", "bubblewrap") and platform.startswith("linux"):
        program = shutil.which("bwrap", path=path)
        if program is None:
            return _unavailable(mode, "bwrap", platform, locale, missing=True)
        sandbox = bubblewrap_for(
            program, environ, locale=locale, limits=limits, version=_bwrap_version(program)
        )
        error = _probe(sandbox, root)
        if error is None:
            return sandbox
        if mode == "bubblewrap":
            raise SandboxUnavailableError(
                text("sandbox.error.broken", locale, mode=mode, program=program, error=error)
            )
        return NoSandbox("unavailable", f"bwrap: {error}")
    if mode in ("auto", "seatbelt") and platform == "darwin":
        program = shutil.which("sandbox-exec", path=path) or _existing("/usr/bin/sandbox-exec")
        if program is None:
            return _unavailable(mode, "sandbox-exec", platform, locale, missing=True)
        tmp = Path(environ.get("TMPDIR") or "/tmp").resolve()
        return SeatbeltSandbox(program, home_from(environ), tmp, dict(environ))
    return _unavailable(mode, "", platform, locale, missing=False)


def _existing(path: str) -> str | None:
    return path if Path(path).is_file() else None


def _unavailable(
    mode: SandboxMode, program: str, platform: str, locale: Locale, *, missing: bool
) -> NoSandbox:
    if mode == "auto":
        return NoSandbox("unavailable", platform)
    if missing:
        install = text(f"sandbox.error.install_{mode}", locale)
        message = text("sandbox.error.missing", locale, mode=mode, program=program, install=install)
    else:
        needed = "Linux" if mode == "bubblewrap" else "macOS"
        message = text(
            "sandbox.error.platform", locale, mode=mode, platform=needed, current=platform
        )
    raise SandboxUnavailableError(message)


def _bwrap_version(program: str) -> tuple[int, ...]:
    """bwrap's version, asked once per program file (a session starts often; the file it
    names changes only when it is replaced, which its identity below notices)."""
    try:
        found = Path(program).stat()
    except OSError:
        return (0,)
    return _version_of(program, found.st_ino, found.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _version_of(program: str, inode: int, mtime: int) -> tuple[int, ...]:
    try:
        done = children.run([program, "--version"], timeout=PROBE_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return (0,)
    return parse_version(done.stdout)


_WORKED: set[tuple[object, ...]] = set()
"""The bwraps that built an empty sandbox in this process (see `_probe`)."""


def _probe(sandbox: BubblewrapSandbox, root: Path) -> str | None:
    """Start and end an empty sandbox; None if it worked, else bwrap's own words.

    What the probe finds out belongs to the machine (user namespaces allowed, AppArmor, a
    container without them), so a bwrap that worked once in this process is not started again
    for the next session or folder: that start (a process, tens of milliseconds) was on every
    session's way to its first request. Only success is remembered, per program file (a
    replaced bwrap is probed anew) and the options it understands; a failure is asked again.
    """
    machine = _machine_key(sandbox)
    if machine in _WORKED:
        return None
    try:
        done = children.run(sandbox.probe_args(root.resolve()), timeout=PROBE_SECONDS)
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    if done.returncode == 0:
        if machine is not None:
            _WORKED.add(machine)
        return None
    return (done.stderr.strip() or f"exit status {done.returncode}").splitlines()[-1]


def _machine_key(sandbox: BubblewrapSandbox) -> tuple[object, ...] | None:
    try:
        found = Path(sandbox.program).stat()
    except OSError:
        return None
    return (sandbox.program, found.st_ino, found.st_mtime_ns, sandbox.features)


@dataclass(frozen=True)
class SandboxState:
    """What the user and the model are told about the command sandbox.

    `variant`: "on"; "void" (on, but the workspace is home or above, so the workspace
    boundary means nothing; network and secrets are still closed); "off". `program` is the
    sandbox binary when on. `off_reason` and `detail` say why it is off.
    """

    kind: SandboxKind
    variant: Variant
    program: str = ""
    off_reason: OffReason | None = None
    detail: str = ""


def workspace_is_void(root: Path, home: Path) -> bool:
    """The seed's `sandbox_would_be_useless`: the workspace is home or one of its ancestors."""
    root, home = root.resolve(), home.resolve()
    return root == home or home.is_relative_to(root)


def describe(sandbox: Sandbox, root: Path, environ: Mapping[str, str]) -> SandboxState:
    """The honest state of `sandbox` for workspace `root` (home from `environ`)."""
    if isinstance(sandbox, NoSandbox):
        return SandboxState("none", "off", off_reason=sandbox.reason, detail=sandbox.detail)
    program = getattr(sandbox, "program", "") or sandbox.kind
    variant: Variant = "void" if workspace_is_void(root, home_from(environ)) else "on"
    return SandboxState(sandbox.kind, variant, program=str(program))


def masks_secrets(state: SandboxState) -> bool:
    """Whether commands cannot read the ignore list's secrets (bubblewrap masks `.env` files
    and blanks `.git/config`; Seatbelt cannot blank a file, and a void sandbox shows home):
    then a program may read folders holding them without asking (design §3)."""
    return state.kind == "bubblewrap" and state.variant == "on"


def status_line(state: SandboxState, locale: Locale) -> str:
    """The user's one line, e.g. `指令沙箱：開啟（/usr/bin/bwrap）`."""
    if state.variant == "off":
        if state.off_reason == "setting":
            status = text("sandbox.status.off", locale)
        else:
            status = text("sandbox.status.unavailable", locale, detail=state.detail)
    elif state.variant == "void":
        status = text("sandbox.status.void", locale)
    else:
        status = text("sandbox.status.on", locale, program=state.program)
    return text("sandbox.status.label", locale, status=status)


def prompt_lines(state: SandboxState, locale: Locale) -> list[str]:
    """The system prompt's sandbox lines (Day 16), without list markers."""
    if state.variant == "off":
        return [text("sandbox.prompt.off", locale)]
    linux = state.kind == "bubblewrap"
    if state.variant == "void":
        first = text("sandbox.prompt.void_bubblewrap" if linux else "sandbox.prompt.void", locale)
    else:
        first = text("sandbox.prompt.on_bubblewrap" if linux else "sandbox.prompt.on", locale)
    hint = text("sandbox.prompt.hint_bubblewrap" if linux else "sandbox.prompt.hint", locale)
    return [first, hint]
