"""How an allowed sed runs: with `--sandbox` where the sed on PATH knows it.

`sed --sandbox` (GNU sed 4.3 and later) refuses the `e`, `r` and `w` commands and flags before
it reads any input, so whatever the policy's reader of the script (`sedscript.py`) made of it,
the sed that runs cannot execute, read or write a file it was not given. The policy rewrites
every auto-allowed `sed` to `sed --sandbox ...` (as it rewrites git, `gitrun.py`) when the probe
below says the flag works, and reads the script strictly when it does not.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path
from typing import Final

SANDBOX_FLAG: Final = "--sandbox"
PROBE_SECONDS: Final = 5.0


def sandbox_supported() -> bool:
    """Whether the `sed` that commands find on PATH accepts `--sandbox` (asked once per file)."""
    found = shutil.which("sed")
    if found is None:
        return False
    try:
        info = Path(found).stat()
    except OSError:
        return False
    return _accepts_sandbox(found, info.st_ino, info.st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _accepts_sandbox(program: str, inode: int, mtime: int) -> bool:
    """`sed --sandbox -n p` on no input: GNU exits 0; BSD and busybox refuse the option."""
    try:
        done = subprocess.run(
            [program, SANDBOX_FLAG, "-n", "p"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=PROBE_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def sandboxed(tokens: list[str]) -> list[str]:
    """The sed command that runs for an allowed `tokens`: `sed --sandbox ARGS`."""
    return [tokens[0], SANDBOX_FLAG, *tokens[1:]]
