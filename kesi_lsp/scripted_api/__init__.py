"""A scripted Anthropic Messages API: the real wire format, strict validation, faults on demand.

KeSi's tests (and `kesi-lsp demo`, and the benchmarks) never talk to the real API. They point
the real `anthropic` SDK at this server (`base_url`), which answers each `POST /v1/messages`
from a **script**, in order (or as a `choose_step` hook decides), exactly as the real API
would on the wire: a JSON message, or
Server-Sent Events (`message_start`, `ping`, `content_block_start`, `content_block_delta` with
`text_delta` / `input_json_delta` cut through JSON tokens, `content_block_stop`,
`message_delta` with stop_reason and usage, `message_stop`; `error` on demand).

It **validates every request like the real API** (roles alternate — stricter than the real
API, which merges repeats —, first message from the user, non-empty content and text, every
`tool_use` answered by a `tool_result` with its id in the next user message and no stray
results, results first, unique ids, well-formed tool schemas, at most 4 `cache_control`
breakpoints, an `x-api-key` or `authorization` header and `anthropic-version`). An invalid
request gets a 400 `invalid_request_error` and is recorded in `problems`; a request the client
abandoned half-sent (it was cancelled) is ignored.

It **counts tokens deterministically** (`tokens.py` documents the rule) and keeps a prompt
cache: a `cache_control` breakpoint writes its prefix, a later request that repeats it reads it
(`cache_read_input_tokens` > 0).

Run it
------
In-process: ``with ScriptedServer(script(...)) as server:`` then ``server.base_url``,
``server.requests`` (RecordedRequest: body, headers, stream, status, events sent, usage,
delivered "none"/"partial"/"full", retry_count), ``server.problems``, ``server.accounting``
(UsageRecord per reply), ``server.wait_stalled()`` / ``server.wait_for(predicate)``.
Two optional hooks, keyword arguments of ``ScriptedServer``:

- ``choose_step=f``: ``f(request: RecordedRequest) -> Step | None`` picks the step for each
  valid request, instead of the script's order (the script then only gives
  ``min_cache_tokens`` and ``model``). Called once per valid request, one at a time; None
  answers like an exhausted script. The demo's recorded model uses it to react to the
  conversation so far (``kesi_lsp/demo/recording.py``).
- ``on_event_sent=f``: ``f(event: SentEvent)`` for every SSE event right after it was flushed:
  ``event.request`` (the RecordedRequest), ``event.name`` (as ``RecordedRequest.events`` lists
  it), ``event.data`` (the JSON payload), ``event.sent_at`` (``time.monotonic()``). Called on
  the thread serving that request. The benchmarks time the stream with it
  (``bench/api_server.py``).

In tests, the fixture ``scripted_api`` (``tests/plugins/scripted_api.py``):
``server = scripted_api(script(...))`` (hooks as keyword arguments); the test fails if the
server saw a problem, unless it called ``server.allow_problems()``.
As a process: ``python -m kesi_lsp.scripted_api --script FILE [--port 0]`` prints its base
URL on one line (``http://127.0.0.1:PORT``) and serves until killed; problems go to stderr.

Script format (JSON; a bare list is taken as ``steps``)
--------------------------------------------------------
::

    {
      "steps": [ STEP, ... ],        # one per incoming request, in order
      "min_cache_tokens": 0,         # prefixes shorter than this are not cached (real Haiku: 4096)
      "model": null,                 # model name to report (default: echo the request's)
      "context_window": null,        # a larger request gets 400 "prompt is too long: N tokens >
                                     # M maximum", as the real API answers (no step is used)
      "models": "window"             # GET /v1/models/{id}: "window" (max_input_tokens is the
                                     # context_window, else 200000), "no_window", "missing" (404)
    }

    STEP = {
      "label": "read the test",      # optional; names the step in problems
      "content": [                   # what the model says, in order
        {"type": "text", "text": "Let me look."},
        {"type": "tool_use", "name": "read_file", "input": {"file_path": "a.py"},
         "id": "toolu_1",            # optional; default toolu_scripted_<request>_<index>
         "raw_json": "{\"file_pa"}   # optional; streamed verbatim instead of `input`
      ],
      "stop_reason": "tool_use",     # default: tool_use if any tool_use block, else end_turn;
                                     # also max_tokens, model_context_window_exceeded, ...
      "usage": {"input_tokens": 100, "output_tokens": 20,
                "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
                                     # each optional: missing ones are computed
      "timing": {"headers_delay": 0, "event_delay": 0, "text_chunk": 6, "json_chunk": 7},
                                     # seconds before the headers / after each SSE event;
                                     # characters per text_delta / per input_json_delta
      "fault": FAULT,                # optional
      "expect": EXPECT,              # optional: checked against the request
      "times": 1,                    # answer this many consecutive requests with this step
      "forever": false               # answer every remaining request (last step only)
    }

    FAULT = one of
      {"kind": "http_error", "status": 429, "retry_after": 1,        # 429 rate_limit_error
       "error_type": null, "message": null, "headers": {}}           # 529 overloaded_error,
                                     # 500 api_error, 400 (+ "headers": {"x-should-retry":
                                     # "true"}), ...; type and message default per status
      {"kind": "reset", "after_events": 5}        # RST the connection after 5 SSE events
                                                  # (non-stream: before any byte)
      {"kind": "stall", "after_events": 3, "seconds": 30, "before_headers": false}
                                     # go silent (then carry on), e.g. so a test can cancel;
                                     # non-stream: delay the whole answer
      {"kind": "error_event", "after_events": 4, "error_type": "overloaded_error",
       "message": "Overloaded"}      # send `event: error` and end the stream
                                     # (non-stream: the matching HTTP error status)

    EXPECT = any of (all must hold, else the request gets a 400 and a recorded problem)
      {"last_user_text_contains": "...", "last_tool_result_contains": "passed",
       "last_tool_result_is_error": false, "system_contains": "...", "message_count": 3,
       "tools_include": ["read_file"], "stream": true}

`after_events` counts every SSE event sent, `ping` included; ``wire.event_names(step)`` lists
them (e.g. ``["message_start", "ping", "content_block_start", "text_delta", ...]``) so a test
can aim a fault at "the first input_json_delta". An invalid request does not consume a step.
When the script runs out, the request gets a 400 saying so (recorded as a problem).

Python helpers build the same data: ``script(reply("Let me look.", tool_use("read_file",
{"file_path": "a.py"})), http_error(429, retry_after=1), reset_after(5, "Hello"),
stall_after(3, "Hi"), error_event_after(4, "Hi"))``; ``Script.dumps()`` writes the JSON,
``parse_script(data)`` / ``load_script(path)`` read it back.
"""

from __future__ import annotations

from kesi_lsp.scripted_api.builders import (
    as_script,
    error_event_after,
    http_error,
    reply,
    reset_after,
    script,
    stall_after,
    text,
    tool_use,
)
from kesi_lsp.scripted_api.parse import load_script, parse_script
from kesi_lsp.scripted_api.records import (
    EventHook,
    RecordedRequest,
    SentEvent,
    StepChooser,
    UsageRecord,
)
from kesi_lsp.scripted_api.script import (
    Fault,
    Script,
    ScriptError,
    Step,
    TextBlock,
    Timing,
    ToolUseBlock,
)
from kesi_lsp.scripted_api.server import ScriptedServer
from kesi_lsp.scripted_api.tokens import REQUEST_OVERHEAD, count_tokens
from kesi_lsp.scripted_api.validate import validate_request
from kesi_lsp.scripted_api.wire import Usage, event_names, plan_events

__all__ = [
    "REQUEST_OVERHEAD",
    "EventHook",
    "Fault",
    "RecordedRequest",
    "Script",
    "ScriptError",
    "ScriptedServer",
    "SentEvent",
    "Step",
    "StepChooser",
    "TextBlock",
    "Timing",
    "ToolUseBlock",
    "Usage",
    "UsageRecord",
    "as_script",
    "count_tokens",
    "error_event_after",
    "event_names",
    "http_error",
    "load_script",
    "parse_script",
    "plan_events",
    "reply",
    "reset_after",
    "script",
    "stall_after",
    "text",
    "tool_use",
    "validate_request",
]
