"""The server's lines as the editors' suites expect to see them, built from the catalog: the
clients show the server's words as they came, so a test asks the catalog what they are rather
than spelling a client's rendering (issue 25)."""

from __future__ import annotations

from kesi_lsp.catalog import Locale, text


def tool(name: str, detail: str = "", locale: Locale = "en") -> str:
    """A tool call's line: `  [tool] read_file: calc.py`."""
    if not detail:
        return text("lsp.log.tool_bare", locale, tool=name)
    return text("lsp.log.tool", locale, tool=name, detail=detail)


def result(summary: str, locale: Locale = "en", error: bool = False) -> str:
    """A tool's result line: `    → read 3 lines`."""
    return text("lsp.log.tool_error" if error else "lsp.log.tool_done", locale, summary=summary)


def nested(line: str, locale: Locale = "en") -> str:
    """A sub-agent's line, one level under its call."""
    return text("lsp.log.nested", locale, line=line)


def notice(said: str, locale: Locale = "en") -> str:
    return text("lsp.log.notice", locale, text=said)


def startup(said: str, locale: Locale = "en") -> str:
    return text("lsp.log.startup", locale, text=said)


def verdict(detail: str, status: str = "verified", locale: Locale = "en") -> str:
    """The verdict's line in the close of a run: `  [verified] pytest -q passed after …`."""
    word = text(f"verify.status.{status}", locale)
    return text("lsp.log.verified", locale, status=word, detail=detail)


def plan_title(done: int, total: int, locale: Locale = "en") -> str:
    return text("lsp.plan.title", locale, done=done, total=total)


def bill_head(key: str, locale: Locale = "en") -> str:
    """What a bill line of `key` (`lsp.log.bill.search`, `lsp.log.bill.compaction`) says
    before its first figure."""
    figures = dict.fromkeys(("requests", "input", "read", "write", "output", "cost"), "\0")
    return text(key, locale, **figures).split("\0")[0]


def end(status: str = "done", verdict: str | None = "verified", locale: Locale = "en") -> str:
    """The start of a run's last line: `done · verified · ` (the bill follows)."""
    words = [text(f"lsp.status.{status}", locale)]
    if verdict is not None:
        words.append(text(f"verify.status.{verdict}", locale))
    return " · ".join(words) + " · "


def question(locale: Locale = "en") -> str:
    """What every review and command prompt asks (Day 14's 「放行嗎？」)."""
    return text("lsp.prompt.question", locale)


def edited(path: str, locale: Locale = "en") -> str:
    """An applied edit's line: `  [edited] calc.py` (its diff follows)."""
    return text("lsp.log.edit", locale, path=path)


def edit_title(path: str, tool: str = "edit_file", locale: Locale = "en") -> str:
    """An edit review's title: what changes (Day 14's 「{tool} 修改檔案：{file_path}」)."""
    return text("lsp.prompt.edit", locale, tool=tool, path=path)
