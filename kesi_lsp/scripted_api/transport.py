"""The bytes on the socket: JSON responses, a chunked SSE body, and a connection reset.

The scripted server's handler builds on this so that what it says (`handler.py`) stays apart
from how it goes out. Every write that finds the client gone raises `ClientGoneError`, so the
handler can record what the client never received.
"""

from __future__ import annotations

import json
import socket
import struct
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler
from typing import Any


class ClientGoneError(Exception):
    """The client closed the connection while we were answering."""


class Transport(BaseHTTPRequestHandler):
    """HTTP/1.1 responses the way the real API sends them, quietly (no access log)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def handle_one_request(self) -> None:
        """Serve one request; a connection we dropped on purpose (or the client did) just ends."""
        try:
            super().handle_one_request()
        except (OSError, ValueError):
            self.close_connection = True

    def _send_json(
        self, status: int, body: Mapping[str, Any], extra: Mapping[str, str] | None = None
    ) -> None:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", "req_scripted")
            for key, value in (extra or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except OSError as exc:
            raise ClientGoneError from exc

    def _start_sse(self) -> None:
        try:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream; charset=utf-8")
            self.send_header("cache-control", "no-cache")
            self.send_header("transfer-encoding", "chunked")
            self.send_header("request-id", "req_scripted")
            self.end_headers()
            self.wfile.flush()
        except OSError as exc:
            raise ClientGoneError from exc

    def _send_chunk(self, data: bytes) -> None:
        """One chunk of the SSE body, flushed at once (an event must not wait in a buffer)."""
        try:
            self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()
        except OSError as exc:
            raise ClientGoneError from exc

    def _end_chunks(self) -> None:
        try:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError as exc:
            raise ClientGoneError from exc

    def _reset(self) -> None:
        """Drop the TCP connection with a RST, as a broken network does."""
        self.close_connection = True
        sock = self.connection
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        # The file objects hold references to the socket: close them so the close is real.
        self.rfile.close()
        self.wfile.close()
        sock.close()
