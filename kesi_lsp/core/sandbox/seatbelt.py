"""The macOS sandbox: the seed's Seatbelt profile (Day 15), run with `sandbox-exec`.

As in the seed, every variable path enters the profile as a parameter (`-D NAME=value`, read
with `(param "NAME")`), never pasted into the Scheme text: a workspace called `work"quoted`
must not break or rewrite the profile. The profile starts from `(allow default)` and tightens
(a `(deny default)` profile aborts the shell on undocumented dyld needs):

- reads: home, `/Users` and `/Volumes` are denied; the workspace and the existing toolchain
  folders are allowed again; metadata stays readable (`getcwd` needs it);
- the ignore list, split as on Linux (`zones.py`): secrets unreadable at any depth; tool state
  (`.git`, `.venv`, ...) readable but not writable. Seatbelt can deny a file but not show an
  empty one instead, and git refuses to run without `.git/config`, so on macOS `.git/config`
  stays readable (on Linux it is blanked). Names match without case, as the file tools' ignore
  list does (`paths.is_ignored_name`): APFS and HFS+ are case-insensitive by default, so
  `cat .ENV` opens `.env`. SBPL regexes have no case-insensitive flag, so each letter becomes a
  bracket pair (`[eE][nN][vV]`); the patterns are fixed text built from our own lists, while
  paths still come in only as parameters;
- writes: only the workspace, the temp folder, `/private/var/folders` and `/dev`;
- no network at all; with the network proxy on (`core/network`), outbound connections to the
  proxy's one loopback port only, and the proxy variables point there (`/usr/bin/env`).

This module only builds the argv; it cannot be exercised on Linux, where its tests check the
profile's text and the parameters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kesi_lsp.core.network.forwarder import proxy_environment
from kesi_lsp.core.sandbox import SHELL_PATH, NetworkBridge, SandboxKind
from kesi_lsp.core.sandbox.children import tied
from kesi_lsp.core.sandbox.netns import SharedNetwork
from kesi_lsp.core.sandbox.toolchain import command_environment, readable_folders
from kesi_lsp.core.sandbox.zones import READONLY_NAMES, SECRET_NAMES, SECRET_PREFIXES


def _caseless(literal: str) -> str:
    """A regex for `literal` in any case: each letter as `[xX]`, everything else escaped."""
    return "".join(
        f"[{char.lower()}{char.upper()}]" if char.lower() != char.upper() else re.escape(char)
        for char in literal
    )


def _alternatives(names: tuple[str, ...], prefixes: tuple[str, ...]) -> str:
    parts = [_caseless(name) for name in names]
    parts += [_caseless(prefix) + "[^/]*" for prefix in prefixes]
    return "|".join(sorted(parts))


SECRET_PATTERN = _alternatives(SECRET_NAMES, SECRET_PREFIXES)
READONLY_PATTERN = _alternatives(READONLY_NAMES, ())


def _under_base(pattern: str) -> str:
    """A Seatbelt regex for `pattern` as a path component at any depth under BASE_DIR."""
    return (
        f'(regex (string-append "^" (regex-quote (param "BASE_DIR")) #"/(.*/)?({pattern})(/|$)"))'
    )


ENV_PROGRAM = "/usr/bin/env"


def profile(toolchains: int, proxy_port: int = 0) -> str:
    """The profile text; `toolchains` says how many TOOLCHAIN_i parameters follow;
    `proxy_port`, when not 0, is the one loopback port commands may connect to (the proxy's;
    a number we chose, so it is part of the text, unlike paths)."""
    network = ["(deny network*)"]
    if proxy_port:
        network.append(f'(allow network-outbound (remote tcp "localhost:{int(proxy_port)}"))')
    toolchain_rules = " ".join(f'(subpath (param "TOOLCHAIN_{i}"))' for i in range(toolchains))
    return "\n".join(
        [
            "(version 1)",
            "(allow default)",
            '(deny file-read* (subpath (param "HOME_DIR")) (subpath "/Users") '
            '(subpath "/Volumes"))',
            f'(allow file-read* (subpath (param "BASE_DIR")) {toolchain_rules})',
            "(allow file-read-metadata)",
            f"(deny file-read* {_under_base(SECRET_PATTERN)})",
            "(deny file-write*)",
            '(allow file-write* (subpath (param "BASE_DIR")) (subpath (param "TMP_DIR")) '
            '(subpath "/private/var/folders") (subpath "/dev"))',
            f"(deny file-write* {_under_base(READONLY_PATTERN)})",
            *network,
        ]
    )


@dataclass(frozen=True)
class SeatbeltSandbox:
    """`sandbox-exec -D ... -p PROFILE /bin/sh -c COMMAND`, the seed's `shell_argv`, under the
    tether (`children.py`: macOS has no parent-death signal, the lifeline pipe works there)."""

    program: str
    home: Path
    tmp_dir: Path
    environ: Mapping[str, str] = field(default_factory=dict)

    @property
    def kind(self) -> SandboxKind:
        return "seatbelt"

    def parameters(self, root: Path) -> list[tuple[str, str]]:
        root = root.resolve()
        toolchains = readable_folders(self.environ, root, self.home)
        params = [
            ("HOME_DIR", str(self.home)),
            ("BASE_DIR", str(root)),
            ("TMP_DIR", str(self.tmp_dir)),
        ]
        params += [(f"TOOLCHAIN_{i}", str(path)) for i, path in enumerate(toolchains)]
        return params

    def argv(
        self,
        command: str,
        root: Path,
        network: NetworkBridge | None = None,
        shared: SharedNetwork | None = None,
    ) -> list[str]:
        params = self.parameters(root)
        toolchains = sum(name.startswith("TOOLCHAIN_") for name, _ in params)
        definitions = [item for name, value in params for item in ("-D", f"{name}={value}")]
        shell = [SHELL_PATH, "-c", command]
        port = network.port if network is not None else 0
        if port:
            variables = proxy_environment({}, port)
            shell = [ENV_PROGRAM, *(f"{k}={v}" for k, v in variables.items()), *shell]
        return tied([self.program, *definitions, "-p", profile(toolchains, port), *shell])

    def environment(self, base: Mapping[str, str], root: Path) -> dict[str, str]:
        return command_environment(base, root)
