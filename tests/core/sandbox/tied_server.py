"""A stand-in for the server, for tests/core/sandbox/test_children.py: it starts one child of
each kind KeSi starts through `children.py`, says `started`, and waits to be killed.

    python -m tests.core.sandbox.tied_server MARKER

Each child carries MARKER on its command line: a `sandbox: off` command (a shell with a
background `sleep`), rg blocked on its stdin (the grep tool's path), a lookup run to its
timeout in a worker thread (the git lookups' path, `children.run`), and a program started
from a worker thread that then ended (where PR_SET_PDEATHSIG would already have killed it).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading

from kesi_lsp.core.sandbox import NoSandbox, children
from kesi_lsp.core.tools.ripgrep import find_rg


def from_a_thread_that_ends(marker: str) -> None:
    def start() -> None:
        subprocess.Popen(
            children.tied(["/bin/sleep", marker]),
            env=children.environment(None),
            pass_fds=(children.lifeline(),),
            start_new_session=True,
        )

    thread = threading.Thread(target=start)
    thread.start()
    thread.join()


async def main(marker: str) -> None:
    command = f"sleep {marker} & sleep {marker}; echo never"
    shell = await children.start(
        NoSandbox().argv(command, "/"), watches_itself=True, stdin=subprocess.DEVNULL
    )
    rg = find_rg()
    assert rg is not None
    await children.start([rg, marker, "-"], stdin=subprocess.PIPE)  # reads a pipe nobody closes
    lookup = asyncio.to_thread(children.run, ["sleep", marker], timeout=600)
    waiting = asyncio.ensure_future(lookup)
    from_a_thread_that_ends(marker)
    sys.stdout.write("started\n")
    sys.stdout.flush()
    await asyncio.gather(shell.wait(), waiting)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
