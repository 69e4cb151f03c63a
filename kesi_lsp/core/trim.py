"""Context trimming: old, large tool results give way to short placeholders.

Every request resends the whole history (Day 18: the input sent over eight questions was 10.7
times the last request's), and the bulk of a long session is tool output the model has already
used: file contents, command output, search results. Claude Code "clears older tool outputs
first" as the context fills; KeSi does the same, by rules simple enough to test:

- **What** may be cleared: the result of read_file, run_command, grep, glob or list_files that
  is at least `min_tokens` long. Its `tool_result` block stays where it is, with its
  `tool_use_id` and `is_error`, so the pairing a strict Messages API checks stays valid; only its
  text becomes a placeholder that says what was there and how to get it again. The newest
  `keep_recent` results, and the results the model has not answered yet, are never cleared.
- **Superseded** results: an older read_file of a file that was read again later (and that
  read succeeded), or an older call of the same search or command with the same input.
- **Budget**: when the history's estimated size passes `budget_tokens`, results are cleared,
  superseded ones first, then the oldest, until it is below `target_tokens`.
- **Read records stay honest**: clearing the latest read of a file removes the file's read
  record (`session.reads`), so write_file must read it again; the placeholder says so.

When to trim is decided with prompt caching in mind. A cleared block changes the prefix from
that block on, so the next request writes the rest of the history to the cache again (1.25 x)
instead of reading it (0.1 x). Clearing on every request would destroy the cache; clearing a
few hundred superseded tokens costs more than it saves. So with caching on, superseded results
wait until the budget is passed, and then everything worth clearing goes in one batch, down to
half the budget: the cache is rebuilt once and stays valid for many requests. Without caching
there is nothing to protect, and superseded results are cleared as soon as they are superseded.
Placeholders depend only on what they replace, and a cleared block is never touched again, so
the prefix stays byte-identical between trims.

Everything here is pure except `trim_session`, which applies a plan to a session in place.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.events import EventSink, Notice, discard
from kesi_lsp.core.paths import safe_path, safe_write_path

if TYPE_CHECKING:
    from anthropic.types import MessageParam

    from kesi_lsp.core.session import Session

TRIMMABLE_TOOLS: Final = frozenset({"read_file", "run_command", "grep", "glob", "list_files"})
TAIL_LINES: Final = 2
TAIL_CHARS: Final = 160
INPUT_CHARS: Final = 120

Reason = Literal["superseded", "budget"]


@dataclass(frozen=True)
class TrimPolicy:
    """The knobs of trimming. `superseded_now`: clear superseded results as soon as they are
    superseded (right when there is no prompt cache to protect)."""

    budget_tokens: int = 50_000
    target_tokens: int = 25_000
    min_tokens: int = 200
    keep_recent: int = 4
    superseded_now: bool = False


def policy_for(*, prompt_caching: bool, budget_tokens: int) -> TrimPolicy:
    """The policy for a session's settings: half the budget is the target after a trim."""
    return TrimPolicy(
        budget_tokens=budget_tokens,
        target_tokens=budget_tokens // 2,
        superseded_now=not prompt_caching,
    )


def estimate_tokens(value: str) -> int:
    """A cheap, deterministic token estimate: ~4 ASCII characters or 1 other character each.

    It only has to rank and bound history sizes; the bill uses the API's own counts.
    """
    if value.isascii():
        return (len(value) + 3) // 4
    extra = len(value.encode("utf-8", "surrogatepass")) - len(value)
    wide = min(len(value), extra // 2)  # CJK takes 3 bytes: about 2 extra bytes per character
    return (len(value) - wide + 3) // 4 + wide


@dataclass(frozen=True)
class ToolCall:
    """A tool_use block of the history and where its result sits."""

    use_id: str
    name: str
    input: Mapping[str, Any]
    result_at: tuple[int, int] | None  # (message index, block index) of its tool_result
    result_text: str
    is_error: bool
    cleared: bool
    tokens: int


@dataclass(frozen=True)
class Cut:
    """One result to clear, and why."""

    use_id: str
    reason: Reason


@dataclass(frozen=True)
class TrimReport:
    """What a trim did: the results it cleared, the read records it removed, the sizes."""

    cleared: tuple[Cut, ...] = ()
    forgotten: tuple[Path, ...] = ()
    tokens_before: int = 0
    tokens_after: int = 0


PLACEHOLDER_MARK: Final = "[kesi:cleared]"
"""Starts every placeholder, so a cleared result is recognised (and never cleared twice)."""


def _get(block: object, key: str) -> Any:
    return block.get(key) if isinstance(block, Mapping) else getattr(block, key, None)


def _blocks(message: Mapping[str, Any]) -> list[Any]:
    content = message["content"]
    return list(content) if isinstance(content, list) else []


def result_text(block: object) -> str:
    """The text of a tool_result block (its string content, or its text blocks joined)."""
    content = _get(block, "content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(_get(b, "text") or "") for b in content if _get(b, "type") == "text")
    return ""


def block_tokens(block: object) -> int:
    """Estimated tokens of one content block (a text, a tool_use, a tool_result)."""
    kind = _get(block, "type")
    if kind == "text":
        return estimate_tokens(str(_get(block, "text") or ""))
    if kind == "tool_use":
        name = str(_get(block, "name") or "")
        payload = json.dumps(_get(block, "input") or {}, ensure_ascii=False, sort_keys=True)
        return estimate_tokens(name) + estimate_tokens(payload)
    if kind == "tool_result":
        return estimate_tokens(result_text(block))
    return 0


def history_tokens(history: Sequence[MessageParam]) -> int:
    """Estimated tokens of the whole history."""
    total = 0
    for message in history:
        content = message["content"]
        if isinstance(content, str):
            total += estimate_tokens(content)
        else:
            total += sum(block_tokens(b) for b in content)
    return total


def tool_calls(history: Sequence[MessageParam]) -> list[ToolCall]:
    """Every tool call of the history in order, with its result (if answered)."""
    results: dict[str, tuple[int, int, object]] = {}
    for m, message in enumerate(history):
        if message["role"] != "user":
            continue
        for b, block in enumerate(_blocks(message)):
            if _get(block, "type") == "tool_result":
                results[str(_get(block, "tool_use_id"))] = (m, b, block)
    calls: list[ToolCall] = []
    for message in history:
        if message["role"] != "assistant":
            continue
        for block in _blocks(message):
            if _get(block, "type") != "tool_use":
                continue
            use_id = str(_get(block, "id"))
            raw_input = _get(block, "input")
            tool_input: Mapping[str, Any] = raw_input if isinstance(raw_input, Mapping) else {}
            found = results.get(use_id)
            body = result_text(found[2]) if found else ""
            calls.append(
                ToolCall(
                    use_id=use_id,
                    name=str(_get(block, "name")),
                    input=tool_input,
                    result_at=(found[0], found[1]) if found else None,
                    result_text=body,
                    is_error=bool(_get(found[2], "is_error")) if found else False,
                    cleared=body.startswith(PLACEHOLDER_MARK),
                    tokens=estimate_tokens(body),
                )
            )
    return calls


def _norm_path(raw: object) -> str:
    value = str(raw or ".").replace("\\", "/")
    return posixpath.normpath(value)


def supersession_key(call: ToolCall) -> tuple[str, str] | None:
    """Calls with the same key answer the same question; a later one supersedes an earlier.

    read_file is keyed by the (normalised) path; the others by their whole input.
    """
    if call.name not in TRIMMABLE_TOOLS:
        return None
    if call.name == "read_file":
        return ("read_file", _norm_path(call.input.get("file_path")))
    if call.name == "list_files":
        return ("list_files", _norm_path(call.input.get("path")))
    canonical = json.dumps(dict(call.input), ensure_ascii=False, sort_keys=True)
    return (call.name, canonical)


def superseded(calls: Sequence[ToolCall]) -> set[str]:
    """Ids of results that a later call with the same key replaced.

    A read_file is only replaced by a later read of the same file that succeeded: a failed
    re-read tells the model nothing new about the text it still holds.
    """
    latest: dict[tuple[str, str], str] = {}
    out: set[str] = set()
    for call in calls:
        key = supersession_key(call)
        if key is None or call.result_at is None:
            continue
        if call.name == "read_file" and call.is_error:
            continue
        previous = latest.get(key)
        if previous is not None:
            out.add(previous)
        latest[key] = call.use_id
    return out


def _protected(history: Sequence[MessageParam], calls: Sequence[ToolCall], keep: int) -> set[str]:
    """The newest `keep` results, and every result in the last message (not answered yet)."""
    answered = [c for c in calls if c.result_at is not None]
    kept = {c.use_id for c in answered[-keep:]} if keep > 0 else set()
    last = len(history) - 1
    kept.update(c.use_id for c in answered if c.result_at and c.result_at[0] == last)
    return kept


def plan(history: Sequence[MessageParam], policy: TrimPolicy) -> list[Cut]:
    """The results to clear now under `policy` (empty most of the time)."""
    calls = tool_calls(history)
    protected = _protected(history, calls, policy.keep_recent)
    candidates = [
        c
        for c in calls
        if c.name in TRIMMABLE_TOOLS
        and c.result_at is not None
        and not c.cleared
        and c.tokens >= policy.min_tokens
        and c.use_id not in protected
    ]
    stale = superseded(calls)
    total = history_tokens(history)
    if total > policy.budget_tokens:
        order = [c for c in candidates if c.use_id in stale]
        order += [c for c in candidates if c.use_id not in stale]
        cuts: list[Cut] = []
        for call in order:
            if total <= policy.target_tokens:
                break
            reason: Reason = "superseded" if call.use_id in stale else "budget"
            cuts.append(Cut(call.use_id, reason))
            total -= call.tokens
        return cuts
    if policy.superseded_now:
        return [Cut(c.use_id, "superseded") for c in candidates if c.use_id in stale]
    return []


# --- placeholders ---


def _clip(value: str, limit: int) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _shown_input(call: ToolCall) -> str:
    shown = json.dumps(dict(call.input), ensure_ascii=False, sort_keys=True)
    return _clip(shown, INPUT_CHARS)


def _tail(body: str) -> str:
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    return " / ".join(_clip(line, TAIL_CHARS) for line in lines[-TAIL_LINES:])


def placeholder(call: ToolCall, reason: Reason, locale: Locale) -> str:
    """The text that replaces a cleared result: what was there and how to get it again."""
    lines = len(call.result_text.splitlines())
    chars = len(call.result_text)
    if call.name == "read_file":
        path = str(call.input.get("file_path", ""))
        key = "loop.trim.read_superseded" if reason == "superseded" else "loop.trim.read"
        body = text(key, locale, path=path, lines=lines, chars=chars)
    elif call.name == "run_command":
        command = _clip(str(call.input.get("command", "")), INPUT_CHARS)
        body = text(
            "loop.trim.command", locale, command=command, lines=lines, tail=_tail(call.result_text)
        )
    else:
        body = text(
            "loop.trim.search", locale, tool=call.name, input=_shown_input(call), lines=lines
        )
    return f"{PLACEHOLDER_MARK} {body}"


# --- applying a plan ---


def _resolve(root: Path, raw: str) -> Path | None:
    return safe_path(root, raw) or safe_write_path(root, raw)


def _latest_reads(calls: Sequence[ToolCall]) -> dict[str, ToolCall]:
    latest: dict[str, ToolCall] = {}
    for call in calls:
        if call.name == "read_file" and call.result_at is not None and not call.is_error:
            latest[_norm_path(call.input.get("file_path"))] = call
    return latest


@dataclass
class _Applied:
    cleared: list[Cut] = field(default_factory=list)
    forgotten: list[Path] = field(default_factory=list)


def apply(
    history: list[MessageParam],
    reads: dict[Path, str],
    root: Path,
    cuts: Sequence[Cut],
    locale: Locale,
) -> TrimReport:
    """Clear the results `cuts` names, in place, and forget reads that are no longer in view.

    A file's read record goes when the latest successful read of it in the history is cleared:
    what the model saw is gone, so the file no longer counts as read.
    """
    before = history_tokens(history)
    calls = {c.use_id: c for c in tool_calls(history)}
    latest = _latest_reads(list(calls.values()))
    done = _Applied()
    for cut in cuts:
        call = calls.get(cut.use_id)
        if call is None or call.result_at is None or call.cleared:
            continue
        m, b = call.result_at
        blocks = _blocks(history[m])
        old = blocks[b]
        blocks[b] = {
            "type": "tool_result",
            "tool_use_id": call.use_id,
            "content": placeholder(call, cut.reason, locale),
            "is_error": bool(_get(old, "is_error")),
        }
        history[m] = {"role": "user", "content": blocks}
        done.cleared.append(cut)
        if call.name == "read_file":
            raw = str(call.input.get("file_path", ""))
            newest = latest.get(_norm_path(raw))
            if newest is not None and newest.use_id == call.use_id:
                path = _resolve(root, raw)
                if path is not None and reads.pop(path, None) is not None:
                    done.forgotten.append(path)
    return TrimReport(
        cleared=tuple(done.cleared),
        forgotten=tuple(done.forgotten),
        tokens_before=before,
        tokens_after=history_tokens(history) if done.cleared else before,
    )


def trim_session(session: Session, locale: Locale, emit: EventSink = discard) -> TrimReport:
    """Trim `session`'s history before a request, as its settings say (off: nothing).

    The loop calls this once before every request; most calls find nothing to do. When results
    were cleared, `emit` gets a notice saying how many and about how many tokens, so the user
    is not left wondering why the model asks for a file again.
    """
    settings = session.settings
    if not settings.context_trimming:
        return TrimReport()
    policy = policy_for(
        prompt_caching=settings.prompt_caching, budget_tokens=settings.context_budget
    )
    cuts = plan(session.history, policy)
    if not cuts:
        return TrimReport()
    report = apply(session.history, session.reads, session.root, cuts, locale)
    if report.cleared:
        saved = report.tokens_before - report.tokens_after
        emit(
            Notice(
                "info",
                text("loop.trim.notice", locale, count=len(report.cleared), tokens=f"{saved:,}"),
            )
        )
    return report


def iter_cleared(history: Sequence[MessageParam]) -> Iterator[str]:
    """The tool_use ids whose results are placeholders (for tests and reports)."""
    for call in tool_calls(history):
        if call.cleared:
            yield call.use_id
