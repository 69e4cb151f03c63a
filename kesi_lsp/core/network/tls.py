"""The name a TLS client asks for (SNI), read from its ClientHello without decrypting anything.

The proxy judges a CONNECT by its target; a client that tunnels to an allowed host and then
asks the server there for another name (domain fronting) is caught by comparing the two. Only
the first record is parsed; anything that does not parse as a ClientHello has no SNI here.
"""

from __future__ import annotations

from typing import Final

HANDSHAKE: Final = 0x16
CLIENT_HELLO: Final = 0x01
SERVER_NAME: Final = 0x0000
RECORD_HEADER: Final = 5


def record_length(head: bytes) -> int | None:
    """The length of the TLS record starting `head` (5 bytes at least), None if not TLS."""
    if len(head) < RECORD_HEADER or head[0] != HANDSHAKE or head[1] != 3:
        return None
    return int.from_bytes(head[3:5], "big")


def server_name(record: bytes) -> str | None:
    """The host name in a ClientHello record's server_name extension, or None."""
    try:
        return _server_name(record)
    except (IndexError, ValueError, UnicodeDecodeError):
        return None


def _server_name(record: bytes) -> str | None:
    if record_length(record) is None:
        return None
    body = record[RECORD_HEADER:]
    if body[0] != CLIENT_HELLO:
        return None
    at = 4 + 2 + 32  # handshake header, client version, random
    at += 1 + body[at]  # session id
    at += 2 + int.from_bytes(body[at : at + 2], "big")  # cipher suites
    at += 1 + body[at]  # compression methods
    end = at + 2 + int.from_bytes(body[at : at + 2], "big")
    at += 2
    while at + 4 <= end:
        kind = int.from_bytes(body[at : at + 2], "big")
        size = int.from_bytes(body[at + 2 : at + 4], "big")
        data = body[at + 4 : at + 4 + size]
        if kind == SERVER_NAME:
            names = data[2:]
            while len(names) >= 3:
                name_type, length = names[0], int.from_bytes(names[1:3], "big")
                if name_type == 0:
                    return names[3 : 3 + length].decode("ascii")
                names = names[3 + length :]
            return None
        at += 4 + size
    return None
