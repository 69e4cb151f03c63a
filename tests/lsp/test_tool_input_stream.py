"""A long tool input shows as it streams (issue 31 item 6, Day 17): `toolInput` events in
`kesi/stream`, a few of them (not one per chunk), each carrying the server's progress line in
the session's words, and the call's `toolStart` after them with the whole input. A log-only
client sees none of them (a log cannot replace a line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.catalog import Locale, text
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.long_write import CHUNK, CONTENT, WRITE, long_write
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_a_long_write_shows_its_progress_then_its_whole_input(
    tmp_path: Path, scripted_api: StartServer, locale: Locale
) -> None:
    folder = tmp_path / "shop"
    folder.mkdir()
    api = scripted_api(long_write())
    options = {"kesi": {"locale": locale}}
    async with kesi_client("vscode+kesi", [folder], env=api_env(api), init_options=options) as c:
        c.answer_preview = lambda edit: True
        done = await c.run("kesi.ask", {"prompt": "Write the rates", "uri": folder.as_uri()})
        events = c.stream(done["runId"])
    assert done["status"] == "done", done
    assert (folder / "shop/rates.py").read_text(encoding="utf-8") == CONTENT
    kinds = [e["kind"] for e in events if e["kind"] in ("toolInput", "toolStart")]
    arriving = [e for e in events if e["kind"] == "toolInput"]
    # Progress while the input arrives, then the call itself with its whole input.
    assert kinds == ["toolInput"] * len(arriving) + ["toolStart"], kinds
    (start,) = [e for e in events if e["kind"] == "toolStart"]
    assert start["input"] == WRITE
    # A few reports, each further on, not one per chunk of the input.
    chunks = len(CONTENT) // CHUNK
    assert 3 <= len(arriving) <= 20 < chunks, (len(arriving), chunks)
    received = [e["received"] for e in arriving]
    assert received == sorted(set(received)) and received[-1] > 10_000, received
    # Each carries the server's line, in the session's words, and no line of the log.
    last = arriving[-1]
    size = f"{last['received'] // 1024} KB"
    so_far = text("story.tool_input.so_far", locale, size=size)
    assert last["line"] == text(
        "story.tool_input", locale, tool="write_file", detail="shop/rates.py", so_far=so_far
    )
    assert {"toolUseId": start["toolUseId"], "detail": "shop/rates.py"}.items() <= last.items()
    assert all(e["lines"] == [] for e in arriving)
    words = {"en": "KB so far", "zh-TW": "已收到"}[locale]
    assert words in last["line"]


async def test_a_log_only_client_sees_the_call_not_its_progress(
    tmp_path: Path, scripted_api: StartServer
) -> None:
    folder = tmp_path / "shop"
    folder.mkdir()
    async with kesi_client("emacs", [folder], env=api_env(scripted_api(long_write()))) as client:
        done = await client.run("kesi.ask", {"prompt": "Write the rates", "uri": folder.as_uri()})
        lines = client.log_lines()
    assert done["status"] == "done", done
    assert not [line for line in lines if "so far" in line], lines
    tool = text("lsp.log.tool", "en", tool="write_file", detail="shop/rates.py")
    assert tool in lines, lines
