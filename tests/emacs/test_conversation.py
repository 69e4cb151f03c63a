"""The working loop's later parts (issue 15) and the seed's start-up lines (issue 19) in a real
Emacs with kesi.el, the real server and a scripted API.

A search sub-agent's lines are indented under its call in `*kesi*`, its sub-total follows the
call's result as a bill line of its own, and the mode line shows the search's turn while it
works; `M-x kesi-compact` is a short run whose notice is information (not a warning) and whose
summary is a bill line; the next Emacs on the same project continues the conversation and its
first run says so first, as information; a model that repeats the same call is stopped, and the
run's end names the limit (`repeating`) in `*kesi*` and in the echo area. The working-directory
and sandbox lines open each session's first run, plainly, once.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.catalog import text
from kesi_lsp.core.persistence import ConversationStore
from kesi_lsp.scripted_api import Timing, reply, script, tool_use
from tests.emacs.conftest import OpenEmacs
from tests.emacs.session import KesiEmacs, failing_project, start_kesi
from tests.story import words

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

SUMMARY = "## Task\nFind where add is defined.\n## Facts\ncalc.py:1 defines add."
SAME = reply("Let me list the folder again.", tool_use("list_files", {}), forever=True)
BILL = re.compile(
    r" *[(（].*?([\d,]+) request.*input ([\d,]+), cache read ([\d,]+), cache write ([\d,]+), "
    r"output ([\d,]+), \$(\d+\.\d{4})[)）]"
)


def _notes(project: Path) -> None:
    body = "".join(f"NOTE_{i} = {i}  # a line of notes about add\n" for i in range(200))
    (project / "notes.py").write_text(body, encoding="utf-8")


def ask(kesi: KesiEmacs, prompt: str) -> None:
    kesi.ed.command("kesi-ask")
    kesi.ed.wait_until(lambda: "Ask KeSi:" in kesi.ed.screen_lines()[-1], "the kesi-ask prompt")
    kesi.ed.type(prompt)
    kesi.ed.keys("Enter")


def mode_line(kesi: KesiEmacs) -> str:
    return str(kesi.ed.in_file("calc.py", "(format-mode-line mode-line-format)"))


def figures(usages: list[Any]) -> dict[str, str]:
    """The catalog's placeholders for the sum of some requests' usage, as the bill prints them."""
    return {
        "requests": str(len(usages)),
        "input": f"{sum(u.input_tokens for u in usages):,}",
        "read": f"{sum(u.cache_read_input_tokens or 0 for u in usages):,}",
        "write": f"{sum(u.cache_creation_input_tokens or 0 for u in usages):,}",
        "output": f"{sum(u.output_tokens for u in usages):,}",
    }


def test_a_search_a_summary_the_next_emacs_continuing_and_a_repeat_stopped(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    _notes(project)
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}  # both Emacs' servers share it
    api = scripted_api(
        script(
            reply("I'll read the notes.", tool_use("read_file", {"file_path": "notes.py"})),
            reply(
                "Now a search.",
                tool_use("search_agent", {"task": "Where is add defined?"}, id="toolu_s"),
            ),
            reply("Searching.", tool_use("grep", {"pattern": "def add"})),
            reply("add is defined at calc.py:1.", timing=Timing(headers_delay=2.0)),
            reply("add is defined at calc.py:1."),
            reply(SUMMARY),
            reply("We found where add is defined.", expect={"last_user_text_contains": "Where"}),
            SAME,
        )
    )
    root = project.resolve()
    kesi = start_kesi(open_emacs, project, api.base_url, env=state)
    ed = kesi.ed
    ask(kesi, "where is add defined?")
    # While the search works, the mode line shows its own turn beside the run's, both in the
    # server's words.
    searching = text("lsp.progress.search_turn", "en", turn=2, max=10)
    shown = ed.wait_until(lambda: searching in (m := mode_line(kesi)) and m, "search turn")
    assert f"KeSi● turn 2 of at most 20 · {searching} · $" in shown, shown
    assert kesi.wait_finished()["status"] == "done"
    assert "search" not in mode_line(kesi)

    out = kesi.output()
    faces = kesi.faces()
    # Day 15's start-up lines open the session's first run, printed plainly.
    assert out[1] == f"  Working directory: {root}", out
    assert out[2].startswith("  Command sandbox: "), out
    assert faces[out[1]] == faces[out[2]] == "kesi-startup"
    start = out.index(words.tool("search_agent", "Where is add defined?"))
    assert out[start + 1] == "    Searching."
    assert out[start + 2] == words.nested(words.tool("grep", "def add"))
    assert out[start + 3].startswith(words.nested(words.result("")))
    assert out[start + 4] == "    add is defined at calc.py:1."  # its conclusion, as it streamed
    assert out[start + 5] == words.result("add is defined at calc.py:1.")  # the main model's
    assert faces[out[start + 2]] == "kesi-tool" and faces[out[start + 3]] == "kesi-tool-ok"
    # The search's own bill line, in the server's words, with the figures of its two requests.
    search_bill = out[start + 6]
    assert faces[search_bill] == "kesi-cost"
    match = BILL.fullmatch(search_bill)
    assert match, search_bill
    cost = match[6]
    assert float(cost) > 0
    assert search_bill == text(
        "lsp.log.bill.search", "en", **figures([r.usage for r in api.accounting[2:4]]), cost=cost
    )
    assert out[-1].startswith(f"── {words.end(verdict=None)}(this run: 5 request(s), "), out[-1]

    ed.command("kesi-compact")
    assert kesi.wait_finished(count=2)["status"] == "done"
    out = kesi.output()
    compact = out.index(next(line for line in out if line.startswith("── compact the conv")))
    section = out[compact:]
    notice = next(line for line in section if line.startswith(words.notice("Summarised ")[:-1]))
    faces = kesi.faces()
    assert faces[notice] == "kesi-info", "a summary is information, not a warning"
    assert not any(faces.get(line) == "kesi-notice" for line in section), section
    summary_bill = next(line for line in section if "(summary of the conversation: " in line)
    assert faces[summary_bill] == "kesi-cost"
    match = BILL.fullmatch(summary_bill.replace("conversation:", "conversation: 1 request"))
    assert match, summary_bill
    summary_figures = figures([api.accounting[5].usage])
    del summary_figures["requests"]
    assert summary_bill == text("lsp.log.bill.compaction", "en", **summary_figures, cost=match[6])
    assert not any("Working directory" in line for line in section), "once per session"
    assert section[-1].startswith(f"── {words.end(verdict=None)}(this run: 1 request(s), "), section

    # The next Emacs on this project continues the conversation, and says so first.
    saved = ConversationStore(tmp_path / "state" / "kesi" / "conversations").file_for(root)
    ed.wait_until(lambda: SUMMARY.splitlines()[1] in saved.read_text(), "the summary saved")
    again = start_kesi(open_emacs, project, api.base_url, env=state)
    ask(again, "Where were we?")
    assert again.wait_finished()["status"] == "done"
    out = again.output()
    continuing = words.notice("Continuing this folder's conversation from ")[:-1]
    assert out[1].startswith(continuing), out
    assert again.faces()[out[1]] == "kesi-info"
    assert out[2] == f"  Working directory: {root}", out

    # A model that repeats one call is stopped; the end of the run names the limit.
    ask(again, "What is here?")
    run = again.wait_finished(count=2)
    assert run["status"] == "limit" and run["limit"] == "repeating", run
    out = again.output()
    section = out[max(i for i, line in enumerate(out) if line.startswith("── ask · What is")) :]
    said = "Stopped: the model called"
    stopped = [line for line in section if line.startswith(words.notice(said)[:-1])]
    assert len(stopped) == 1, section  # the stream's notice, as the server words it
    assert "list_files {} 4 times in a row" in stopped[0]
    why = next(
        line for line in section if line.startswith(text("lsp.log.stopped", "en", text=said))
    )
    assert why in section[-3:], section  # and the server's close says why it stopped
    footer = section[-1]
    limit_end = f"── {words.end('limit', verdict=None)}(this run: 4 request(s), "
    assert footer.startswith(limit_end), footer
    assert again.faces()[footer] == "kesi-stopped"
    assert not any("Working directory" in line for line in section), "once per session"
    echoed = f"KeSi: {footer.removeprefix('── ')} · {said}"
    assert echoed in again.ed.messages()
