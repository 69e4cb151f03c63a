"""The frame reader alone (bytes in, bodies and problems out), fed in every size of piece a
pipe may deliver: each bad frame gives one problem (with the request's id when it can be
read), and the good frame after it comes out whole."""

from __future__ import annotations

import json

import pytest

from kesi_lsp.lsp.framing import Body, Event, FrameReader, Problem

REQUEST = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "x"}).encode()
GOOD = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}).encode()


def frame(body: bytes, length: bytes | None = None) -> bytes:
    return b"Content-Length: " + (length or str(len(body)).encode()) + b"\r\n\r\n" + body


CASES = {
    "not a number": (frame(REQUEST, b"abc"), 1, "Content-Length must be a number"),
    "negative": (frame(REQUEST, b"-5"), 1, "Content-Length must be a number"),
    "too large": (frame(REQUEST, b"200"), 1, "the message ended after 42 of the 200 bytes"),
    "a terabyte": (frame(REQUEST, b"1000000000000"), None, "Request too large"),
    "header cut short": (b"Content-Len\r\n\r\n" + REQUEST, 1, "not an LSP header"),
    "no header": (REQUEST, 1, "not an LSP header"),
}


def feed(data: bytes, piece: int) -> list[Event]:
    reader = FrameReader(lambda: 64 << 20)
    events: list[Event] = []
    for start in range(0, len(data), piece):
        events += reader.feed(data[start : start + piece])
    return events


@pytest.mark.parametrize("piece", [1, 2, 7, 64, 1 << 20])
@pytest.mark.parametrize("name", list(CASES))
def test_a_bad_frame_is_one_problem_and_the_next_frame_comes_out_whole(
    name: str, piece: int
) -> None:
    data, request_id, said = CASES[name]
    events = feed(data + frame(GOOD), piece)
    (problem,) = [e for e in events if isinstance(e, Problem)]
    assert said in problem.message and problem.request_id == request_id
    assert events[-1] == Body(GOOD)


def test_a_length_too_small_leaves_a_body_that_is_not_json_and_the_rest_is_skipped() -> None:
    events = feed(frame(REQUEST, b"10") + frame(GOOD), 1 << 20)
    assert events[0] == Body(REQUEST[:10])
    assert isinstance(events[1], Problem) and events[-1] == Body(GOOD)


def test_a_body_that_holds_header_text_inside_a_string_is_read_whole() -> None:
    """Inside a JSON string, CR LF is escaped: header words there start no frame."""
    body = json.dumps({"jsonrpc": "2.0", "method": "m", "params": "Content-Length: 5\r\n"})
    events = feed(frame(body.encode()) + frame(GOOD), 3)
    assert events == [Body(body.encode()), Body(GOOD)]


def test_the_bytes_of_a_refused_message_are_not_kept() -> None:
    reader = FrameReader(lambda: 1000)
    assert isinstance(reader.feed(b"Content-Length: 1000000000000\r\n\r\n")[0], Problem)
    for _ in range(100):
        assert reader.feed(b"x" * 65536) == []
    assert len(reader._buffer) <= 64
