"""The Linux sandbox: bubblewrap (`bwrap`), started through the guard (`guard.py`).

The seed's sandbox was macOS-only and said plainly that Linux had none. Here Linux gets one, and
it is stricter than the seed's Seatbelt profile where Linux makes that easy:

- Reads are an allow-list, not a deny-list. The sandbox's root is empty; only system folders
  (`/usr`, `/etc`, `/opt`, the `/lib*` and `/bin` links, `/nix`, `/sys`), the workspace, and the
  seed's toolchain folders under home are mounted. Home is an empty, private tmpfs; other users'
  homes, `/root`, `/srv`, `/mnt`, `/media`, `/var` and `/run` (sockets: docker, ssh-agent,
  D-Bus) are simply not there. Files in `/etc` that are not world-readable (`/etc/shadow`, ssh
  host keys) are masked too, which matters when the editor runs as root.
- Writes go only to the workspace and to private, size-limited tmpfs folders (`/tmp`,
  `/var/tmp`, `/dev/shm`, home) that vanish with the command. The rest is read-only.
- No network: a new network namespace with only a loopback of its own. With the network proxy
  on (`sandboxNetwork`, `core/network`), the proxy's UNIX socket for this command is bound in
  at `/run/kesi/proxy.sock` and a small forwarder (`network/forwarder.py`, run by the server's
  own interpreter, mounted read-only) listens on the namespace's loopback and leads there; it
  sets the proxy variables and starts the command. The socket is outside the workspace, so the
  masks below never cover it. A UNIX socket file in
  the workspace would still reach the host service listening on it (a database, a docker or
  git fsmonitor daemon), so the guard masks every socket it finds there when the command starts;
  sockets the command creates itself work.
- Its own PID namespace, so the command cannot see or signal the editor or the server (nor
  read `/proc/<server>/environ`, where the API key lives); user namespace with every
  capability dropped and no nested user namespaces; a new session (no terminal injection).
- The ignore list, resource limits and cleanup: see `guard.py` and `zones.py`.

The project's own virtualenv keeps working: `.venv` is readable (read-only), and the folder of
the interpreter it was made from (`home = ...` in `pyvenv.cfg`) is mounted read-only even when
it lives in an unusual place under home. A git worktree's real git folder (`gitdir:` in the
`.git` file) is mounted read-only too, with its config blanked like any `.git/config`.

Known limits, as the seed admits for Seatbelt: an existing hard link inside the workspace still
reaches its inode (paths, not file origins, are checked); the toolchain folders are holes; a
socket a host service creates in the workspace while a command runs is not masked (the walk
happens at the start), nor one inside `node_modules`, `.venv` and the like (only `.git`'s own
entries are looked at); without a writable memory cgroup, the memory limit is per process and
counts address space, which some runtimes reserve far beyond what they use (WebAssembly, a
JVM's heap): raise `commandMemoryLimit` for them.
"""

from __future__ import annotations

import functools
import json
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.network import forwarder as forwarder_module
from kesi_lsp.core.sandbox import SHELL_PATH, NetworkBridge, SandboxKind
from kesi_lsp.core.sandbox import guard as guard_module
from kesi_lsp.core.sandbox.env import home_from
from kesi_lsp.core.sandbox.netns import SharedNetwork
from kesi_lsp.core.sandbox.toolchain import command_environment, readable_folders
from kesi_lsp.core.sandbox.zones import READONLY_NAMES, SECRET_NAMES, SECRET_PREFIXES

SYSTEM_PATHS: Final = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/nix",
    "/gnu",
    "/sys",
)
"""Mounted read-only (or re-created as the same symlink) when they exist on the host."""

PRIVATE_TMP: Final = ("/tmp", "/var/tmp", "/dev/shm")
GUARD_PATH: Final = str(Path(guard_module.__file__).resolve())
SANDBOX_TMPDIR: Final = "/tmp"
PRLIMIT: Final = "/usr/bin/prlimit"
FORWARDER_PATH: Final = str(Path(forwarder_module.__file__).resolve())
INSIDE_FORWARDER: Final = "/run/kesi/forwarder.py"
INSIDE_SOCKET: Final = "/run/kesi/proxy.sock"


def gib(value: int) -> str:
    """A size in words: `4 GiB`, `512 MiB`."""
    return f"{value / (1 << 30):g} GiB" if value >= 1 << 30 else f"{value / (1 << 20):g} MiB"


@dataclass(frozen=True)
class Limits:
    """Resource limits for one command. The defaults suit a coding agent on a workstation."""

    max_processes: int = 2048
    """Processes (tasks, with a cgroup) alive at once; a fork bomb is stopped past it."""
    max_file_bytes: int = 1 << 30
    """No single file may grow past this (RLIMIT_FSIZE)."""
    disk_budget_bytes: int = 8 << 30
    """Free space of the workspace's filesystem the command may use up."""
    min_free_bytes: int = 256 << 20
    """Stop when the workspace's filesystem falls under this (if it started above)."""
    tmp_bytes: int = 2 << 30
    """Size of each private tmpfs (/tmp, /var/tmp, /dev/shm, home)."""
    max_entries: int = 300_000
    """Workspace entries the guard will walk to find what to hide; more and it refuses."""
    max_memory_bytes: int = 4 << 30
    """Memory the command may use (the `commandMemoryLimit` setting; 0: no limit): the whole
    command's, in a memory cgroup where the host allows one, else each process's address space
    (RLIMIT_AS)."""
    use_cgroup: bool = True
    """Let the guard make cgroups when the host allows it (a hard cap on forks and memory)."""


@dataclass(frozen=True)
class BwrapFeatures:
    """What the installed bwrap understands (`--size` 0.7, `--disable-userns` 0.8)."""

    version: tuple[int, ...] = (0, 8, 0)

    @property
    def size(self) -> bool:
        return self.version >= (0, 7)

    @property
    def disable_userns(self) -> bool:
        return self.version >= (0, 8)


def parse_version(output: str) -> tuple[int, ...]:
    """`bubblewrap 0.8.0` -> (0, 8, 0); unknown text gives (0,)."""
    for word in output.split():
        parts = word.split(".")
        if all(part.isdigit() for part in parts):
            return tuple(int(part) for part in parts)
    return (0,)


@dataclass(frozen=True)
class BubblewrapSandbox:
    """Run each command in a fresh bwrap sandbox, through the guard.

    `program` is the bwrap binary, `home` the user's home (resolved), `environ` the host's
    environment (its `PATH` and active environments stay readable, `toolchain.py`), `python`
    the interpreter that runs the guard (the server's own) and `guard` its file. `locale` words
    the guard's messages.
    """

    program: str
    home: Path
    environ: Mapping[str, str] = field(default_factory=dict)
    python: str = sys.executable
    guard: str = GUARD_PATH
    locale: Locale = "en"
    limits: Limits = field(default_factory=Limits)
    features: BwrapFeatures = field(default_factory=BwrapFeatures)

    @property
    def kind(self) -> SandboxKind:
        return "bubblewrap"

    def argv(
        self,
        command: str,
        root: Path,
        network: NetworkBridge | None = None,
        shared: SharedNetwork | None = None,
    ) -> list[str]:
        spec = self.spec(command, root, network)
        if shared is not None and not shared.closed:
            spec["shared_net"] = shared.spec()
            bwrap = list(spec["bwrap"])  # type: ignore[call-overload]
            spec["bwrap"] = [*bwrap[:2], "--share-net", *bwrap[2:]]
        return [self.python, "-I", "-S", self.guard, json.dumps(spec, ensure_ascii=False)]

    def environment(self, base: Mapping[str, str], root: Path) -> dict[str, str]:
        env = command_environment(base, root)
        env["TMPDIR"] = SANDBOX_TMPDIR
        env["HOME"] = str(self.home)
        return env

    def spec(
        self, command: str, root: Path, network: NetworkBridge | None = None
    ) -> dict[str, object]:
        """What the guard needs for one command (see `guard.Spec`)."""
        root = root.resolve()
        limits = self.limits
        bwrap = [self.program, *self.static_args(root)]
        inner = self.inner_argv()
        if network is not None and network.socket_path:
            bwrap += self.network_args(network)
            inner = [
                self.inside_python(),
                "-I",
                "-S",
                INSIDE_FORWARDER,
                INSIDE_SOCKET,
                "--",
                *inner,
            ]
        return {
            "bwrap": bwrap,
            "inner": inner,
            "command": command,
            "root": str(root),
            "secret_names": list(SECRET_NAMES),
            "secret_prefixes": list(SECRET_PREFIXES),
            "readonly_names": list(READONLY_NAMES),
            "blank_files": [str(p) for p in self._git_outside(root)[1]],
            "deny_paths": list(unreadable_in_etc()),
            "max_entries": limits.max_entries,
            "max_processes": limits.max_processes,
            "max_file_bytes": limits.max_file_bytes,
            "disk_budget_bytes": limits.disk_budget_bytes,
            "min_free_bytes": limits.min_free_bytes,
            "max_memory_bytes": limits.max_memory_bytes,
            "use_cgroup": limits.use_cgroup,
            "messages": self._messages(),
        }

    def static_args(self, root: Path) -> list[str]:
        """bwrap's options up to the workspace mount; the guard adds masks and the command."""
        args = ["--unshare-all", "--unshare-user", "--die-with-parent", "--new-session"]
        args += ["--cap-drop", "ALL"]
        if self.features.disable_userns:
            args.append("--disable-userns")
        for path in SYSTEM_PATHS:
            args += _system_mount(path)
        args += ["--proc", "/proc", "--dev", "/dev"]
        for path in PRIVATE_TMP:
            args += [*self._size(), "--tmpfs", path]
        if self.home != Path("/"):
            args += [*self._size(), "--tmpfs", str(self.home)]
        for folder in self._readable_extras(root):
            args += ["--ro-bind", str(folder), str(folder)]
        args += ["--bind", str(root), str(root), "--chdir", str(root)]
        return args

    def inner_argv(self) -> list[str]:
        """What runs inside, before the command string: `/bin/sh -c`, under `prlimit` when the
        system has it, so that a non-root user's processes are capped by the kernel itself
        (RLIMIT_NPROC, counted inside the sandbox's user namespace; root is exempt from it and
        relies on the guard's cgroup or count)."""
        shell = [SHELL_PATH, "-c"]
        if Path(PRLIMIT).is_file():
            return [PRLIMIT, f"--nproc={self.limits.max_processes}", "--", *shell]
        return shell

    def inside_python(self) -> str:
        """The interpreter that runs the forwarder inside: the server's own, by its real path
        (a virtualenv's `python` is a link to it)."""
        return os.path.realpath(self.python)

    def network_args(self, network: NetworkBridge) -> list[str]:
        """Mounts for the way out: the forwarder, the interpreter's installation (read-only,
        when not a system folder already) and this command's proxy socket."""
        args = ["--ro-bind", FORWARDER_PATH, INSIDE_FORWARDER]
        prefix = Path(self.inside_python()).parent.parent
        if not any(prefix.is_relative_to(p) for p in SYSTEM_PATHS):
            args += ["--ro-bind", str(prefix), str(prefix)]
        base = Path(sys.base_prefix).resolve()
        if base != prefix and not any(base.is_relative_to(p) for p in SYSTEM_PATHS):
            args += ["--ro-bind", str(base), str(base)]
        return [*args, "--bind", network.socket_path, INSIDE_SOCKET]

    def probe_args(self, root: Path) -> list[str]:
        """A complete argv that starts and ends an empty sandbox (for `select_sandbox`)."""
        return [self.program, *self.static_args(root), "--remount-ro", "/", "--", "/bin/true"]

    def _size(self) -> list[str]:
        return ["--size", str(self.limits.tmp_bytes)] if self.features.size else []

    def readable(self, root: Path) -> list[Path]:
        """Folders outside the workspace that commands may read (see `_readable_extras`)."""
        return self._readable_extras(root)

    def _readable_extras(self, root: Path) -> list[Path]:
        """Toolchains and active environments (`toolchain.py`), and a worktree's git folder."""
        extras = readable_folders(self.environ, root, self.home)
        extras = [p for p in extras if not any(p.is_relative_to(s) for s in SYSTEM_PATHS)]
        extras += self._git_outside(root)[0]
        return _outermost([p for p in extras if not p.is_relative_to(root)])

    def _git_outside(self, root: Path) -> tuple[list[Path], list[Path]]:
        """For a worktree or submodule checkout: git folders outside the workspace to mount
        read-only, and their config files to blank."""
        dot_git = root / ".git"
        try:
            if not dot_git.is_file() or dot_git.is_symlink():
                return [], []
            first = dot_git.read_text(encoding="utf-8", errors="replace").splitlines()[0]
        except (OSError, IndexError):
            return [], []
        if not first.startswith("gitdir:"):
            return [], []
        gitdir = (root / first.partition(":")[2].strip()).resolve()
        folders = [gitdir]
        try:
            common = (gitdir / (gitdir / "commondir").read_text().strip()).resolve()
            folders.append(common)
        except OSError:
            common = gitdir
        folders = [f for f in folders if f.is_dir()]
        blanks = [common / "config", gitdir / "config.worktree"]
        return folders, blanks

    def _messages(self) -> dict[str, str]:
        limits = self.limits
        locale = self.locale
        return {
            "processes": text("sandbox.limit.processes", locale, limit=limits.max_processes),
            "processes_refused": text(
                "sandbox.limit.processes_refused", locale, limit=limits.max_processes
            ),
            "file_size": text("sandbox.limit.file_size", locale, limit=gib(limits.max_file_bytes)),
            "disk": text("sandbox.limit.disk", locale, limit=gib(limits.disk_budget_bytes)),
            "memory": text("sandbox.limit.memory", locale, limit=gib(limits.max_memory_bytes)),
            "too_large": text("sandbox.too_large", locale, limit=limits.max_entries),
        }


def _system_mount(path: str) -> list[str]:
    host = Path(path)
    try:
        if host.is_symlink():
            return ["--symlink", str(host.readlink()), path]
        if host.is_dir():
            return ["--ro-bind", path, path]
    except OSError:
        pass
    return []


def _outermost(paths: Sequence[Path]) -> list[Path]:
    """Drop duplicates and paths inside another one of the list (bwrap mounts in order)."""
    result: list[Path] = []
    for path in sorted(set(paths), key=lambda p: len(p.parts)):
        if not any(path.is_relative_to(kept) for kept in result):
            result.append(path)
    return result


@functools.cache
def unreadable_in_etc(base: str = "/etc") -> tuple[str, ...]:
    """Entries of /etc that others may not read (/etc/shadow, ssh host keys): masked, so a
    sandbox run as root cannot read them either. Computed once per process."""
    found: list[str] = []
    pending = [base]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue
        for entry in entries:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode):
                continue
            if stat.S_ISDIR(mode):
                if mode & 0o005 != 0o005:
                    found.append(entry.path)
                else:
                    pending.append(entry.path)
            elif not mode & 0o004:
                found.append(entry.path)
    return tuple(sorted(found))


def bubblewrap_for(
    program: str,
    environ: Mapping[str, str],
    *,
    locale: Locale = "en",
    limits: Limits | None = None,
    version: tuple[int, ...] = (0, 8, 0),
) -> BubblewrapSandbox:
    """A bubblewrap sandbox for this host (home from `environ`, the guard run by this Python)."""
    return BubblewrapSandbox(
        program=program,
        home=home_from(environ),
        environ=dict(environ),
        locale=locale,
        limits=limits or Limits(),
        features=BwrapFeatures(version),
    )
