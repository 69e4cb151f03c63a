"""The same scripted run through a log-only LSP client, a client that reads `kesi/stream`,
and ACP, in English and zh-TW (issue 25): the log's lines are the lines the stream carries,
and ACP asks and bills in the same words.

The editors' suites (tests/vscode, tests/nvim, tests/emacs: `test_story.py`) hold what each
editor shows against the log-only client's story, computed by `log_story` here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from kesi_lsp.catalog import Locale, text
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.plugins.scripted_api import StartServer
from tests.story.run import LOCALES, PROMPT, STEPS, answer, log_story, project, story, story_script

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def streamed(events: list[dict[str, Any]]) -> list[str]:
    """Every line the `kesi/stream` events of a run carry, in order."""
    return [line for event in events if event["kind"] != "text" for line in event["lines"]]


def told(updates: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Every story line the `session/update`s of a run carry (`_meta.kesi.lines`), in order."""
    return [
        line
        for _, update in updates
        for line in update.get("_meta", {}).get("kesi", {}).get("lines", [])
    ]


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_log_reads_the_lines_the_stream_carries(
    tmp_path: Path, scripted_api: StartServer, locale: Locale
) -> None:
    folder = project(tmp_path / "calc")
    reference = await log_story(folder, scripted_api(story_script()), locale)
    folder = project(tmp_path / "again")
    api = scripted_api(story_script())
    options = {"kesi": {"locale": locale}}
    async with kesi_client("vscode+kesi", [folder], env=api_env(api), init_options=options) as c:
        c.answer_preview = lambda edit: True
        c.answer_prompt = lambda params: answer([a.title for a in params.actions or []], locale)
        done = await c.run("kesi.ask", {"prompt": PROMPT, "uri": folder.as_uri()}, seconds=120)
        plans = c.plans(done["runId"])
    assert done["status"] == "done", done
    shown = story([*streamed(c.stream(done["runId"])), *done["lines"]], folder, locale)
    assert shown == reference.lines
    # Every piece of the run is there, in the session's words.
    tool = text("lsp.log.tool", locale, tool="grep", detail="def add")
    assert any(line.endswith(tool.strip()) for line in shown), shown
    assert text("verify.status.verified", locale) in done["line"]
    assert done["line"].startswith(text("lsp.status.done", locale))
    assert plans[-1] == [{"content": s, "status": "completed"} for s in STEPS]


@pytest.mark.parametrize("locale", LOCALES)
async def test_acp_tells_the_same_story_asks_and_bills_in_the_same_words(
    tmp_path: Path, scripted_api: StartServer, locale: Locale
) -> None:
    folder = project(tmp_path / "calc")
    reference = await log_story(folder, scripted_api(story_script()), locale)
    folder = project(tmp_path / "acp")
    client = EditorClient(answer=lambda call, options: options[1].option_id)
    env = agent_env(scripted_api(story_script()), KESI_LOCALE=locale)
    async with acp_agent(env, client) as agent:
        session = await agent.start(folder)
        done = await agent.prompt(session, PROMPT)
    assert done.stop_reason == "end_turn"
    # The story lines ACP's updates carry are the log's, line for line, in the session's words.
    assert story(told(client.updates), folder, locale) == reference.lines
    # The search's own calls show in its card, under the call they work for.
    (search,) = [c for c in client.cards() if c["rawInput"] == {"task": "Where is add defined?"}]
    trail = [u for u in client.card_updates(search["toolCallId"]) if u.get("content")]
    grep = text("lsp.log.tool", locale, tool="grep", detail="def add").strip()
    assert any(grep in c["content"]["text"] for u in trail for c in u["content"]), trail
    words = [text(f"permissions.answer.{k}", locale) for k in ("deny", "once", "session")]
    assert [[o["name"] for o in asked.options] for asked in client.asked] == [words, words]
    plans = client.of_kind("plan")
    assert [e["content"] for e in plans[-1]["entries"]] == list(STEPS)
    # The bill of the run, the seed's Day 18 line, is the log's.
    bill = story([client.notices("bill")[-1]], folder, locale)[0]
    assert any(bill.strip("> ") in line for line in reference.lines), (bill, reference.lines)


def test_a_log_client_hears_no_kesi_notification() -> None:
    """The reference is honest only if the log-only client is one: it announces no KeSi
    extension (so every line it shows came as `window/logMessage`). The test preset announces
    `experimental.kesi: {}`, an empty set of extensions, only so that it hears
    `kesi/runFinished`, the test's word on how the run ended (issue 30: a client announcing
    nothing hears no `kesi/*` at all)."""
    from tests.lsp.clients import PRESETS

    capabilities = PRESETS["emacs"].capabilities()
    experimental = capabilities.experimental
    kesi = experimental.get("kesi") if isinstance(experimental, dict) else None
    assert kesi == {}
    assert types.WINDOW_LOG_MESSAGE  # the channel it reads
