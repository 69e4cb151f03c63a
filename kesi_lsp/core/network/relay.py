"""The proxy's byte relay: once a host is judged, the rest of a connection moves in the kernel.

Why threads and splice, not the event loop: a download is the proxy's heavy direction, and
every byte that enters the server's process is copied twice (in from the host's socket, out to
the command's) with Python's overhead per chunk, on the loop that also answers the editor.
Here each direction is a thread (`Workers`: kept and reused, not started per connection) that
splices through a pipe (`os.splice`, Linux): the pages go from one socket to the other without
entering the process, and the loop only waits for the end. With the forwarder handing the
command's socket itself to the proxy (`forwarder.py`), this is the only relay between the
command and the host. A 50 MB loopback download through forwarder and proxy went from
2.1-2.9x the direct time (two relays, one through Python) to 0.87-0.96x on the benchmark's
machine (medians of per-round ratios, bench/network.py, bench/README §12), with the command's
loopback hop on reno (`sockets.local_hop`: the machine's BBR paced it); where the host's side
does not pace either, a direct loopback download is twice as fast and the second TCP
connection's kernel work shows (1.5-1.8x). A 1 MB pipe without flags measured best
(SPLICE_F_MORE, a 256 KB pipe, 4 MB socket buffers did not help). Where splice is missing
(macOS) or refuses the sockets, the thread copies through one reused buffer instead.

The limits stay the channel's: every chunk is counted (`Count`) before it is passed on, and
a direction stops at once when the count says no; `stop` (the channel's close, its deadline,
its byte limit) shuts both sockets down, which wakes a thread blocked in either call. The
sockets are closed only when both threads are done with them (never under a blocked call).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import queue
import socket
import threading
from collections.abc import Callable
from typing import Final

CHUNK: Final = 1 << 20
STOP_SECONDS: Final = 5.0
IDLE_SECONDS: Final = 30.0
F_SETPIPE_SZ: Final = 1031  # Linux's fcntl numbers (the fcntl module names them from 3.10)
F_GETPIPE_SZ: Final = 1032

Count = Callable[[int], bool]
"""Bytes that passed -> whether the command may go on (False: its byte limit is reached).
Called from the relay's threads."""


class Relay:
    """Both directions between the command's socket and the host's, until both have ended."""

    def __init__(self, client: socket.socket, host: socket.socket, count: Count) -> None:
        self._sockets = (client, host)
        self._count = count
        self._left = 2
        self._lock = threading.Lock()
        self._loop = asyncio.get_running_loop()
        self._done: asyncio.Future[None] = self._loop.create_future()

    async def run(self) -> None:
        """Relay until both sides have sent all (or `stop`); the sockets are closed after."""
        client, host = self._sockets
        for sock in self._sockets:
            sock.setblocking(True)
        for source, sink in ((client, host), (host, client)):
            WORKERS.run(functools.partial(self._direction, source, sink))
        try:
            await asyncio.shield(self._done)
        finally:
            if not self._done.done():  # cancelled: wake the threads, let them close
                self.stop()
                await asyncio.wait([self._done], timeout=STOP_SECONDS)

    def stop(self) -> None:
        """End both directions now (safe from any thread)."""
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def _counted(self, size: int) -> bool:
        """The channel's count; past its limit both directions end, not just this one."""
        if self._count(size):
            return True
        self.stop()
        return False

    def _direction(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            if not _splice(source, sink, self._counted):
                _copy(source, sink, self._counted)
        except OSError:
            self.stop()
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)  # half-close: the other direction goes on
        with self._lock:
            self._left -= 1
            last = self._left == 0
        if last:
            for sock in self._sockets:
                sock.close()
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
                self._loop.call_soon_threadsafe(_resolve, self._done)


class Workers:
    """Threads for the relays' directions, kept for a while after their relay ended.

    Why not a thread per direction: starting one (and `Thread.start` waiting until it runs)
    cost 0.1-0.4 ms each on the 2-core machine, twice per connection; with one busy process
    beside the proxy a small request took +2.1-2.5 ms through it that way, +0.4-1.0 ms with
    kept threads (bench/README §12). Why not an executor: a relay holds its thread as long as its
    connection lives (a download, a long tunnel), so a bounded pool would make the next
    connection wait for another's end; here a job never waits: an idle thread takes it, or a
    new one starts. A thread idle for `IDLE_SECONDS` ends (a burst leaves nothing behind).
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0  # threads waiting for a job and not yet promised one

    def run(self, job: Callable[[], None]) -> None:
        """Run `job` in a thread of its own now."""
        with self._lock:
            if self._idle:
                self._idle -= 1  # promised: the job is there before this thread can leave
                self._jobs.put(job)
                return
        threading.Thread(target=self._work, args=(job,), name="kesi-relay", daemon=True).start()

    def _work(self, job: Callable[[], None]) -> None:
        while True:
            job()
            del job  # its relay's sockets are not kept alive by an idle thread
            with self._lock:
                self._idle += 1
            try:
                job = self._jobs.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    try:  # a job promised to an idle thread just as this one timed out
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        self._idle -= 1
                        return


WORKERS: Final = Workers()


def _resolve(done: asyncio.Future[None]) -> None:
    if not done.done():
        done.set_result(None)


def _pipe() -> tuple[int, int, int]:
    """A pipe for splicing and how many bytes it holds (CHUNK where the system allows)."""
    import fcntl

    read_end, write_end = os.pipe()
    with contextlib.suppress(OSError):
        fcntl.fcntl(write_end, F_SETPIPE_SZ, CHUNK)
    try:
        size = fcntl.fcntl(write_end, F_GETPIPE_SZ)
    except OSError:
        size = 1 << 16
    return read_end, write_end, size


def _splice(source: socket.socket, sink: socket.socket, count: Count) -> bool:
    """Move `source`'s bytes to `sink` in the kernel until `source` ends; False when splice
    is not there or refuses these sockets before any byte moved (then copy instead)."""
    splice = getattr(os, "splice", None)
    if splice is None:
        return False
    read_end, write_end, size = _pipe()
    moved = False
    try:
        while True:
            try:
                got = splice(source.fileno(), write_end, size)
            except OSError:
                if moved:
                    raise
                return False
            if got == 0 or not count(got):
                return True
            moved = True
            while got:
                got -= splice(read_end, sink.fileno(), got)
    finally:
        os.close(read_end)
        os.close(write_end)


def _copy(source: socket.socket, sink: socket.socket, count: Count) -> None:
    buffer = bytearray(CHUNK)
    view = memoryview(buffer)
    while got := source.recv_into(buffer):
        if not count(got):
            return
        sink.sendall(view[:got])
