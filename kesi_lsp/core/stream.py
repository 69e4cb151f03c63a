"""One model round-trip over `messages.stream` (Day 17), reporting exactly how far it got.

Streaming makes "half a reply" a real state. The SDK accumulates a snapshot as events arrive,
and a tool_use whose JSON is still arriving already *looks* complete in it (`{"file_path":
"hello.py"}` without its `content`), so the snapshot alone cannot say what is finished. This
module counts `content_block_stop` events: the first `finished` blocks of the snapshot are
whole, and nothing after them may enter the history.

The SDK parses a whole network read's worth of events without giving the event loop a turn;
yielding after each event lets the host answer its editor in between (benchmark 2: busy p99
of codeAction / kesi.cost down from 3.0-3.7 ms to 2.6-3.1 ms on this project's machine).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import anthropic
from anthropic.lib.streaming import AsyncMessageStream, ParsedMessageStreamEvent
from anthropic.types import Message

from kesi_lsp.catalog import Locale
from kesi_lsp.core.events import EventSink, Notice, TextDelta
from kesi_lsp.core.model.anthropic import ModelClient
from kesi_lsp.core.tool_input import ToolInputMeter
from kesi_lsp.core.watchdog import RETRY_ALLOWANCE, IdleWatchdog, StreamStalledError

TurnKind = Literal["complete", "cancelled", "failed_before_start", "failed_after_start"]


@dataclass(frozen=True)
class TurnResult:
    """How a round-trip ended.

    complete: `message` is the whole reply. cancelled: the task was cancelled; `snapshot` is
    what had arrived (None before `message_start`). failed_before_start: the request failed
    before any stream existed (`error`, an AnthropicError, after the SDK's retries); nothing
    arrived. failed_after_start: the stream broke (`error` may be any exception, e.g. a
    connection reset from the HTTP layer); `snapshot` as for cancelled.
    """

    kind: TurnKind
    message: Message | None = None
    snapshot: Message | None = None
    finished: int = 0
    error: BaseException | None = None


def _tool_input(
    stream: AsyncMessageStream[None],
    event: ParsedMessageStreamEvent[None],
    meter: ToolInputMeter,
    emit: EventSink,
) -> None:
    """Report a tool call's input as it arrives (throttled by the meter). The input so far is
    the SDK's own partial parse of it, in the snapshot."""
    if event.type == "content_block_start" and event.content_block.type == "tool_use":
        meter.start(event.index, event.content_block.id, event.content_block.name)
    elif event.type == "content_block_delta" and event.delta.type == "input_json_delta":
        block = stream.current_message_snapshot.content[event.index]
        parsed = block.input if block.type == "tool_use" else {}
        shown = parsed if isinstance(parsed, Mapping) else {}
        progress = meter.delta(event.index, event.delta.partial_json, shown)
        if progress is not None:
            emit(progress)


async def stream_turn(
    model: ModelClient,
    params: Mapping[str, Any],
    emit: EventSink,
    locale: Locale,
    *,
    idle_timeout: float | None = None,
) -> TurnResult:
    """Send one request, emit its text as it streams, and say how it ended (never raises for
    API, transport or cancellation; a bug before the stream exists still propagates).

    `idle_timeout`: the stalled-stream watchdog (`kesi_lsp.core.watchdog`); a stream silent
    that long ends as a failure whose `error` is a StreamStalledError.
    """
    opened = False
    started = False
    finished = 0
    active: AsyncMessageStream[None] | None = None
    watchdog = IdleWatchdog(idle_timeout)
    inputs = ToolInputMeter()

    def notice(event: Notice) -> None:
        if event.kind == "retry":
            watchdog.kick(RETRY_ALLOWANCE)  # the SDK waits before it retries: not a stall
        emit(event)

    try:
        async with watchdog, model.stream(params, on_notice=notice, locale=locale) as active:
            opened = True
            async for event in active:
                watchdog.kick()
                if event.type == "message_start":
                    started = True
                elif event.type == "content_block_stop":
                    finished = event.index + 1
                elif event.type == "content_block_delta" and event.delta.type == "text_delta":
                    emit(TextDelta(event.delta.text))
                else:
                    _tool_input(active, event, inputs, emit)
                await asyncio.sleep(0)  # let the host answer its editor between events
            message = await active.get_final_message()
        return TurnResult("complete", message=message, finished=len(message.content))
    except StreamStalledError as exc:
        if not opened:
            return TurnResult("failed_before_start", error=exc)
        snapshot = active.current_message_snapshot if active is not None and started else None
        return TurnResult("failed_after_start", snapshot=snapshot, finished=finished, error=exc)
    except asyncio.CancelledError:
        snapshot = active.current_message_snapshot if active is not None and started else None
        return TurnResult("cancelled", snapshot=snapshot, finished=finished)
    except anthropic.AnthropicError as exc:
        if not opened:
            return TurnResult("failed_before_start", error=exc)
        snapshot = active.current_message_snapshot if active is not None and started else None
        return TurnResult("failed_after_start", snapshot=snapshot, finished=finished, error=exc)
    except Exception as exc:
        # After the stream started, anything (httpx2.ReadError, a reset...) is a broken stream.
        if not opened:
            raise
        snapshot = active.current_message_snapshot if active is not None and started else None
        return TurnResult("failed_after_start", snapshot=snapshot, finished=finished, error=exc)
