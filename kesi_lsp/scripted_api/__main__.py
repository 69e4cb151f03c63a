"""`python -m kesi_lsp.scripted_api --script FILE [--port 0]`: serve a script for other processes.

Prints the base URL on one line (then flushes) so a parent process can read it, serves until
SIGTERM/SIGINT, and reports every problem (invalid request, failed expectation, exhausted
script) on stderr as it happens. Exit status 1 if there were problems, else 0.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from kesi_lsp.scripted_api.parse import load_script
from kesi_lsp.scripted_api.script import ScriptError
from kesi_lsp.scripted_api.server import ScriptedServer


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kesi_lsp.scripted_api",
        description="Serve a scripted Anthropic Messages API on 127.0.0.1.",
    )
    parser.add_argument("--script", required=True, type=Path, help="the script (JSON)")
    parser.add_argument("--port", type=int, default=0, help="port (0: pick a free one)")
    args = parser.parse_args(argv)
    try:
        loaded = load_script(args.script)
    except ScriptError as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    reported = 0
    with ScriptedServer(loaded, port=args.port) as server:
        sys.stdout.write(server.base_url + "\n")
        sys.stdout.flush()
        while not stop.wait(0.1):
            problems = server.problems
            for problem in problems[reported:]:
                sys.stderr.write(f"scripted API problem: {problem}\n")
                sys.stderr.flush()
            reported = len(problems)
        problems = server.problems
    for problem in problems[reported:]:
        sys.stderr.write(f"scripted API problem: {problem}\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
