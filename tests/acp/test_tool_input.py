"""A long tool input shows as it streams in an ACP client too (issue 31 item 6, Day 17): its
card opens `pending` while the input arrives, its title says how much has come (a few
`tool_call_update`s, not one per chunk), and the call then runs with its whole input."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.catalog import Locale, text
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.lsp.long_write import CONTENT, WRITE, long_write
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e


@pytest.mark.slow
@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_the_card_shows_the_input_arriving_then_runs_with_all_of_it(
    tmp_path: Path, scripted_api: StartServer, locale: Locale
) -> None:
    folder = tmp_path / "shop"
    (folder / "shop").mkdir(parents=True)  # the client writes into a folder that exists
    client = EditorClient(answer=lambda call, options: options[1].option_id)
    env = agent_env(scripted_api(long_write()), KESI_LOCALE=locale)
    async with acp_agent(env, client) as agent:
        session = await agent.start(folder)
        done = await agent.prompt(session, "Write the rates")
    assert done.stop_reason == "end_turn"
    assert client.writes[-1] == (str(folder / "shop/rates.py"), CONTENT)
    (card,) = client.cards()
    assert card["status"] == "pending"
    updates = client.card_updates(card["toolCallId"])
    titles = [
        u["title"]
        for u in updates
        if "so far" in u.get("title", "") or "已收到" in u.get("title", "")
    ]
    assert 2 <= len(titles) <= 20, titles
    written = text("acp.tool.write_file", locale, path="shop/rates.py")
    assert all(t.startswith(f"{written} · ") for t in titles), titles
    # Then the call runs with its whole input, under its plain title, and completes.
    running = next(u for u in updates if u.get("status") == "in_progress")
    assert running["rawInput"] == WRITE and running["title"] == written
    assert updates[-1]["status"] == "completed"
    # The in-place line is the story's, as the LSP clients show it.
    line = updates[len(titles) - 1]["_meta"]["kesi"]["line"]
    assert line.startswith(text("lsp.log.tool", locale, tool="write_file", detail="shop/rates.py"))
