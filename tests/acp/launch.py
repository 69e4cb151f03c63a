"""Where the `kesi-lsp acp` an ACP test talks to runs: a thread of this process, or a process.

Both speak the same newline-delimited JSON-RPC over OS pipes, through the same composition
root (`kesi_lsp.acp.app.serve_connection`: the line transport, the dispatcher, the agent), so a
test reads every byte the agent wrote either way. In this process the agent starts without an
interpreter and the SDK imported again for every test (about 3 s of CPU each on this machine);
a test of what only a process shows (its exit code, its stderr, `claim_stdio`) asks for one
with `process=True` and carries the `subprocess` mark. `KESI_TEST_SERVER=subprocess` runs
every ACP test against a real process, as it does for the language server's tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from kesi_lsp.acp.app import message_limit, serve_connection
from kesi_lsp.acp.transport import open_streams
from tests.processes import may_start_our_process

LIMIT = 64 * 1024 * 1024
END_SECONDS = 20.0


def in_process_wanted(process: bool) -> bool:
    return not process and os.environ.get("KESI_TEST_SERVER") != "subprocess"


@dataclass
class Served:
    """The test's ends of the agent's stdin and stdout, and how to wait for the agent's end."""

    stdin: asyncio.StreamWriter
    stdout: asyncio.StreamReader
    process: asyncio.subprocess.Process | None = None
    thread: threading.Thread | None = None
    log: bytearray = field(default_factory=bytearray)

    async def ended(self, seconds: float = END_SECONDS) -> bool:
        """Whether the agent ended by itself within `seconds` of its input closing."""
        if self.process is not None:
            try:
                await asyncio.wait_for(self.process.wait(), seconds)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
                return False
            return True
        assert self.thread is not None
        await asyncio.get_running_loop().run_in_executor(None, self.thread.join, seconds)
        return not self.thread.is_alive()


async def start_process(env: Mapping[str, str], args: Sequence[str] = ()) -> Served:
    """`python -m kesi_lsp acp` (with `args` after it), its stderr kept in `log`."""
    may_start_our_process("a kesi-lsp acp process")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kesi_lsp",
        "acp",
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=dict(env),
        limit=LIMIT,
    )
    assert process.stdin and process.stdout
    return Served(process.stdin, process.stdout, process=process)


async def start_in_process(env: Mapping[str, str]) -> Served:
    """`serve_connection` in a thread with its own event loop, over two OS pipes."""
    to_agent_r, to_agent_w = os.pipe()
    from_agent_r, from_agent_w = os.pipe()
    log = bytearray()
    thread = threading.Thread(
        target=_serve,
        args=(os.fdopen(to_agent_r, "rb", 0), os.fdopen(from_agent_w, "wb", 0), dict(env), log),
        name="kesi-acp-in-process",
        daemon=True,
    )
    thread.start()
    # The client's ends, as the agent makes its own (a pipe in, a pipe out).
    stdout, stdin = await open_streams(
        os.fdopen(from_agent_r, "rb", 0), os.fdopen(to_agent_w, "wb", 0), limit=LIMIT
    )
    return Served(stdin, stdout, thread=thread, log=log)


def _serve(rpc_in: BinaryIO, rpc_out: BinaryIO, env: dict[str, str], log: bytearray) -> None:
    """The agent's thread: serve until the input ends, then close the output, as a process
    ending would, so the client sees the end of the conversation."""

    async def main() -> None:
        limit = message_limit(env)  # as `kesi-lsp acp` does (kesi_lsp.acp.app.serve)
        reader, writer = await open_streams(rpc_in, rpc_out, limit=limit)
        try:
            await serve_connection(reader, writer, env, limit=limit)
        finally:
            writer.close()  # (a bare pipe protocol has nothing to wait on: the end is below)

    with _kept_log(log):
        try:
            asyncio.run(main())
        finally:
            for stream in (rpc_out, rpc_in):
                with contextlib.suppress(OSError):
                    stream.close()


@contextlib.contextmanager
def _kept_log(kept: bytearray) -> Iterator[None]:
    """What the agent logs while it serves, kept as a process's stderr would keep it."""
    handler = _BytesHandler(kept)
    logger = logging.getLogger("kesi_lsp")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield None
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


class _BytesHandler(logging.Handler):
    def __init__(self, kept: bytearray) -> None:
        super().__init__(logging.INFO)
        self._kept = kept
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self._kept.extend((self.format(record) + "\n").encode("utf-8", "replace"))
