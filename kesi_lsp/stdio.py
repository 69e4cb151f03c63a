"""stdin and stdout for a JSON-RPC server: claimed once, so nothing else can touch them.

File descriptor 1 is the JSON-RPC channel and nothing else may reach it: the channel gets a
private duplicate, and fd 1 (and Python's sys.stdout) are pointed at stderr, so a stray print,
a library that writes to stdout or a child process inheriting stdout cannot corrupt the stream.
Likewise fd 0 is replaced by /dev/null, so no child process can eat the client's messages.
Both servers (the LSP one and the ACP one) speak through what `claim_stdio` returns.
"""

from __future__ import annotations

import os
import sys
from typing import BinaryIO


def claim_stdio() -> tuple[BinaryIO, BinaryIO]:
    """The private JSON-RPC input and output; fds 0 and 1 are /dev/null and stderr afterwards."""
    rpc_in = os.fdopen(os.dup(0), "rb")
    rpc_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdout.flush()
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return rpc_in, rpc_out
