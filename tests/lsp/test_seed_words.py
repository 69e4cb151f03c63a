"""The seed's words over the real wire, in English and in zh-TW (issue 19).

`kesi-lsp` as a subprocess, the real `anthropic` SDK against the scripted Messages API, and a
client imitating an editor. Each test is one place where the seed (Days 04, 10, 14-18) states
what the user or the model sees, checked where it lands:

- the bill after a run (Day 18): cache figures, the interrupted-request note and the session
  total, in `kesi/runFinished.bill` for every client and as a log line for log clients;
- the permission question and its buttons (Day 14), in the session's locale, Deny first, an
  answer matched by title in that locale;
- `kesi.cost` and `kesi.reset` answering in the seed's words (Days 04/10, 18), said through
  `window/showMessage` to editors without a KeSi client (Helix, eglot);
- the refusals the model receives (Days 14, 16), whole, with "don't resend" in the system
  prompt instead;
- the start-up lines (Day 15), once per session;
- the fix-this task's problem lines in the locale.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import reply, script, stall_after, tool_use
from kesi_lsp.testing import BUTTONS
from tests.lsp.clients import Editor, kesi_client
from tests.lsp.helpers import api_env, wait_for
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

LOCALES = ["en", "zh-TW"]
QUESTION = {"en": "Allow it?", "zh-TW": "放行嗎？"}
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "bill": "(this run: {n} request(s), input ",
        "cache": ", cache read {read:,}, cache write {write:,}, $",
        "partial": ", 1 of them counted only up to the interruption; session total $",
        "total": "; session total ${total})",
        "done": "done",
        "cancelled": "cancelled",
        "reset": "(history and file version records cleared; starting over)",
        "workspace": "Working directory: {root}",
        "sandbox": "Command sandbox: off (setting kesi.sandbox = off)",
        "refused_command": "Error: the user refused to run this command.",
        "refused_edit": "Error: the user refused to modify this file.",
        "red_line": "Error: this operation was blocked by the safety rules (this command would "
        "delete the root or home directory); it was not run.",
        "resend_rule": "do not send the same request again",
        "problem": "- line 2: error [pytest] test_add fails: assert -1 == 5",
    },
    "zh-TW": {
        "bill": "（本輪 {n} 次請求，input ",
        "cache": "、快取讀 {read:,}、快取寫 {write:,}，$",
        "partial": "，其中 1 次只算到中斷前收到的部分；累計 $",
        "total": "；累計 ${total}）",
        "done": "完成",
        "cancelled": "已取消",
        "reset": "（日記與檔案版本紀錄已清空，我們重新開始）",
        "workspace": "工作目錄：{root}",
        "sandbox": "指令沙箱：關閉（設定 kesi.sandbox = off）",
        "refused_command": "錯誤：使用者拒絕執行這個指令。",
        "refused_edit": "錯誤：使用者拒絕修改這個檔案。",
        "red_line": "錯誤：這個操作被安全規則擋下來了（這個指令會刪掉根目錄或家目錄），沒有執行。",
        "resend_rule": "被拒絕時換個做法或問清楚，不要重送同一個請求。",
        "problem": "- 第 2 行：錯誤 [pytest] test_add fails: assert -1 == 5",
    },
}


@pytest.fixture
def root(project: Path) -> Path:
    """The workspace folder as the server names it (resolved)."""
    return project.resolve()


def init(locale: str) -> dict[str, str]:
    return {"locale": locale, "sandbox": "off"}


def tool_result_texts(body: dict[str, Any]) -> list[str]:
    """The text of every tool_result in a request's last (user) message."""
    texts = []
    for block in body["messages"][-1]["content"]:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            content = block["content"]
            texts.append(content if isinstance(content, str) else content[0]["text"])
    return texts


def expected_total(finished: dict[str, Any], locale: str) -> str:
    return WORDS[locale]["total"].format(total=f"{finished['sessionUsage']['costUsd']:.4f}")


# -- 1. the bill ------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("preset", ["helix", "vscode+kesi"])
async def test_every_client_gets_the_seeds_whole_bill(
    preset: str, locale: str, project: Path, scripted_api: StartServer
) -> None:
    """A cached run's bill shows the cache; a cancelled one says what it could not count."""
    words = WORDS[locale]
    api = scripted_api(
        script(
            reply("Hi."),
            reply("Hi again."),
            stall_after(6, "Hm.\nLet me think about this for a long while.", seconds=60),
        )
    )
    async with kesi_client(
        preset, [project], env=api_env(api), init_options=init(locale)
    ) as client:
        first = await client.run("kesi.ask", {"prompt": "hi"})
        second = await client.run("kesi.ask", {"prompt": "again"})
        started = await client.command("kesi.ask", {"prompt": "think"})
        await wait_for(lambda: api.requests[2:] and _streamed(client, started["runId"]))
        await client.command("kesi.cancel", {"runId": started["runId"]})
        third = await client.wait_finished(started["runId"])

    assert first["statusText"] == words["done"] and third["statusText"] == words["cancelled"]
    usage = second["usage"]
    assert usage["cacheReadTokens"] > 0, "the second request read the cached prefix"
    assert second["bill"].startswith(words["bill"].format(n=1))
    cache = words["cache"].format(read=usage["cacheReadTokens"], write=usage["cacheWriteTokens"])
    assert cache in second["bill"], second["bill"]
    assert second["bill"].endswith(expected_total(second, locale))
    # Day 18: the request cut off by the cancel counts what arrived, and the bill says so.
    assert third["usage"]["partial"] is True
    assert words["partial"] in third["bill"], third["bill"]
    assert third["bill"].endswith(expected_total(third, locale))
    logged = [line for line in client.log_lines() if line.strip().startswith(words["bill"][:3])]
    if preset == "helix":  # no KeSi client: the whole story in log lines, the bill indented
        assert logged == [f"  {f['bill']}" for f in (first, second, third)]
    else:
        assert logged == []


def _streamed(client: Editor, run_id: str) -> bool:
    """Text of `run_id` reached the client (a `kesi/stream` delta or a log line)."""
    return bool(client.stream(run_id, "text")) or "KeSi > Hm." in client.log_lines()


async def test_a_run_without_a_request_has_no_bill(
    project: Path, scripted_api: StartServer
) -> None:
    """Day 18 prints the bill "only when this round received usage": no key, no request."""
    async with kesi_client("helix", [project], env={}, init_options=init("zh-TW")) as client:
        done = await client.run("kesi.ask", {"prompt": "hi"})
    assert done["status"] == "failed" and done["statusText"] == "失敗"
    assert done["bill"] is None
    assert not any("本輪" in line for line in client.log_lines())


# -- 2 and 5. the question, its buttons, and the refusals the model receives -----------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_prompt_speaks_the_locale_deny_first_and_refusals_are_the_seeds(
    locale: str, project: Path, scripted_api: StartServer
) -> None:
    words = WORDS[locale]
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": "touch no"})),
            reply(tool_use("run_command", {"command": "touch ok"})),
            reply(tool_use("run_command", {"command": "rm -rf /"})),
            reply(
                tool_use(
                    "edit_file",
                    {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
                )
            ),
            reply("Understood."),
        )
    )
    other = BUTTONS["zh-TW" if locale == "en" else "en"]
    answers = iter([other[1], BUTTONS[locale][1], BUTTONS[locale][0]])
    async with kesi_client(
        "neovim", [project], env=api_env(api), init_options=init(locale)
    ) as client:
        client.answer_prompt = lambda params: next(answers)
        done = await client.run("kesi.ask", {"prompt": "go"})
    assert done["status"] == "done"
    first, second, edit = client.prompts
    for prompt in client.prompts:
        assert [a.title for a in prompt.actions or []] == list(BUTTONS[locale])
        assert prompt.message.endswith(f"\n{QUESTION[locale]}"), prompt.message
    assert "touch no" in first.message and "touch ok" in second.message
    assert "calc.py" in edit.message
    assert (project / "ok").exists(), "the locale's 'allow once' allowed it"
    assert not (project / "no").exists(), "another locale's title is no answer: denied"
    results = [tool_result_texts(request.body) for request in api.requests[1:]]
    # The seed's texts whole (Days 14, 16): nothing added after them.
    assert results[0] == [words["refused_command"]]
    assert results[2] == [words["red_line"]], "the red line is never asked"
    assert results[3] == [words["refused_edit"]]
    # "Don't resend" is the system prompt's rule (Day 16), in every request, in the locale.
    for request in api.requests:
        assert words["resend_rule"] in request.body["system"][0]["text"]


# -- 3. /cost and /reset ----------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("preset", ["helix", "neovim+kesi"])
async def test_cost_and_reset_answer_in_the_seeds_words(
    preset: str, locale: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Hi."), reply("Fresh.", expect={"message_count": 1})))
    async with kesi_client(
        preset, [project], env=api_env(api), init_options=init(locale)
    ) as client:
        first = await client.run("kesi.ask", {"prompt": "hi"})
        cost = await client.command("kesi.cost", {})
        reset = await client.command("kesi.reset", {})
        await client.run("kesi.ask", {"prompt": "again"})  # the API checks: one message
        shown = client.shown(types.MessageType.Info)
    usage = first["usage"]
    seed_cost = {
        "en": [
            "This session: 1 request(s)",
            f"input {usage['inputTokens']:,}, output {usage['outputTokens']:,}",
            f"cache read 0, cache write {usage['cacheWriteTokens']:,}",
            f"Total ${usage['costUsd']:.4f}",
        ],
        "zh-TW": [
            "這個 session 共 1 次請求",
            f"input {usage['inputTokens']:,}、output {usage['outputTokens']:,}",
            f"快取讀 0、快取寫 {usage['cacheWriteTokens']:,}",
            f"合計 ${usage['costUsd']:.4f}",
        ],
    }
    assert usage["cacheWriteTokens"] > 0, "the first request wrote the prompt cache"
    assert cost["lines"] == seed_cost[locale]
    assert cost["requests"] == 1 and cost["costUsd"] == usage["costUsd"]  # the figures stay
    assert reset == {"message": WORDS[locale]["reset"]}
    if preset == "helix":  # nothing of KeSi's own: the editor's message area says it
        assert "\n".join(seed_cost[locale]) in shown and WORDS[locale]["reset"] in shown
    else:  # our clients show the result's own lines
        assert shown == []


# -- 7. the start-up lines --------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("preset", ["neovim", "vscode+kesi"])
async def test_the_start_up_lines_come_once_per_session_in_the_locale(
    preset: str, locale: str, project: Path, root: Path, scripted_api: StartServer
) -> None:
    words = WORDS[locale]
    start_up = [words["workspace"].format(root=root), words["sandbox"]]
    api = scripted_api(script(reply("Hi."), reply("Hi again.")))
    async with kesi_client(
        preset, [project], env=api_env(api), init_options=init(locale)
    ) as client:
        first = await client.run("kesi.ask", {"prompt": "hi"})
        second = await client.run("kesi.ask", {"prompt": "again"})
    if preset.endswith("+kesi"):
        notices = client.stream(first["runId"], "notice")
        assert [(n["notice"], n["text"]) for n in notices] == list(
            zip(["workspace", "sandbox"], start_up, strict=True)
        )
        assert client.stream(second["runId"], "notice") == []
    else:  # the seed's own layout: two indented lines, before the model's first word
        lines = client.log_lines()
        assert lines[:2] == [f"  {line}" for line in start_up]
        assert sum(line.strip() == start_up[0] for line in lines) == 1


# -- 2. the fix-this task ---------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_fix_this_task_speaks_the_locale(
    locale: str, project: Path, scripted_api: StartServer
) -> None:
    diagnostic = {
        "range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 16}},
        "message": "test_add fails: assert -1 == 5",
        "severity": 1,
        "source": "pytest",
    }
    api = scripted_api(script(reply("I see.", expect={"last_user_text_contains": "return a - b"})))
    async with kesi_client(
        "neovim", [project], env=api_env(api), init_options=init(locale)
    ) as client:
        buffer = client.open(project / "calc.py")
        rng = {"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}}
        done = await client.run(
            "kesi.fixThis", {"uri": buffer.uri, "range": rng, "diagnostics": [diagnostic]}
        )
    assert done["status"] == "done"
    task = api.requests[0].body["messages"][0]["content"]
    lines = (task if isinstance(task, str) else task[-1]["text"]).splitlines()
    assert WORDS[locale]["problem"] in lines
    if locale == "zh-TW":
        assert not any(line.startswith("- line ") for line in lines), "no English under zh-TW"
