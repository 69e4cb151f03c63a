"""Loopback servers that stand in for the internet, and the wiring that maps test names to
them inside the proxy's resolver (no test reaches the internet)."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kesi_lsp.core.network.access import NetworkAccess
from kesi_lsp.core.network.addresses import MappedResolver, SystemResolver


@dataclass(frozen=True)
class Site:
    """A loopback web server serving `folder`; `hits` counts the requests it answered."""

    port: int
    folder: Path
    hits: list[str]


def _handler(folder: Path, hits: list[str]) -> type[http.server.SimpleHTTPRequestHandler]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

        def do_GET(self) -> None:
            hits.append(self.path)
            super().do_GET()

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@contextlib.contextmanager
def site(folder: Path) -> Iterator[Site]:
    """Serve `folder` over http on a free loopback port while the block runs."""
    hits: list[str] = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(folder, hits))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Site(int(server.server_address[1]), folder, hits)
    finally:
        server.shutdown()
        server.server_close()


def access_to(**names: int) -> NetworkAccess:
    """The proxy with test names mapped to loopback ports: `access_to(pypi_test=8080)` maps
    `pypi.test` (underscores become dots)."""
    hosts = {name.replace("_", "."): ("127.0.0.1", port) for name, port in names.items()}
    return NetworkAccess(MappedResolver(hosts, SystemResolver()))
