"""Pending hunks for a client that draws them itself (issue 32, design §2.9) over the real wire.

VS Code lists every diagnostic in its Problems panel, so KeSi's extension announces
`experimental.kesi.hunks` and draws pending hunks as decorations: for it the server sends
`kesi/hunks` (each file's pending hunks, with what they replaced) and publishes no `KeSi`
diagnostics. Every other client keeps the diagnostics exactly as before and gets no
`kesi/hunks`; the lenses and code actions are the same for all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import script
from kesi_lsp.testing import Editor
from tests.lsp.change_sets import (
    ACCEPT,
    FIXED,
    api_env,
    calc_project,
    kesi_diagnostics,
    lenses,
    two_hunks,
    until,
)
from tests.lsp.clients import kesi_client
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

DRAWS = "vscode+kesi"  # announces `hunks`, as the VS Code extension does


def kesi_publications(client: Editor, path: Path) -> int:
    """How many diagnostics publications for `path` carried a KeSi pending hunk."""
    uri = client.uri(path)
    return sum(
        1
        for method, params in client.timeline
        if method == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
        and params.uri == uri
        and any(d.source == "KeSi" for d in params.diagnostics)
    )


def hunk_lines(hunks: list[dict[str, Any]] | None) -> list[int]:
    return [hunk["range"]["start"]["line"] for hunk in hunks or []]


@pytest.mark.parametrize("preset", [DRAWS, "vscode", "neovim+kesi"])
async def test_pending_hunks_are_diagnostics_except_for_a_client_that_draws_them(
    preset: str, tmp_path: Path, scripted_api: StartServer
) -> None:
    root, calc = calc_project(tmp_path)
    api = scripted_api(script(*two_hunks()))
    async with kesi_client(preset, [root], env=api_env(api), init_options=ACCEPT) as client:
        client.open(calc)
        done = await client.run("kesi.ask", {"prompt": "fix the signs", "uri": client.uri(calc)})
        assert done["status"] == "done" and client.buffer(calc).text == FIXED
        if preset == DRAWS:
            await until(lambda: hunk_lines(client.pending_hunks(calc)) == [1, 5])
            first, second = client.pending_hunks(calc) or []
            # What the client draws: where each hunk is, and the line it replaced.
            assert first["state"] == second["state"] == "pending"
            assert (first["lines"], first["base"]) == (1, "    return a - b\n")
            assert (second["lines"], second["base"]) == (1, "    return a + b\n")
            assert first["label"] == "line 2 · return a + b"
        else:
            await until(lambda: len(kesi_diagnostics(client, calc)) == 2)
            assert client.pending_hunks(calc) is None  # never sent to it
        titles = [lens.command.title for lens in await lenses(client, calc) if lens.command]
        assert titles.count("KeSi: Keep") == 2  # the lenses are everyone's
        kept = await client.command("kesi.keep", {"uri": client.uri(calc)})
        assert kept["message"].startswith("KeSi: kept calc.py")
        if preset == DRAWS:
            await until(lambda: client.pending_hunks(calc) == [])  # its marks go
            assert kesi_publications(client, calc) == 0  # no Problems entry, ever
        else:
            await until(lambda: kesi_diagnostics(client, calc) == [])
            assert kesi_publications(client, calc) >= 1
