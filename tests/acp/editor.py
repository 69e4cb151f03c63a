"""An ACP client that behaves like an editor, for end-to-end tests of `kesi-lsp acp`.

It is the `acp` package's own client side (`connect_to_agent`) over the stdio of `kesi-lsp acp`
(its composition root in a thread of this process, or a real process: tests/acp/launch.py),
with a client that keeps buffers (text the user has not saved:
`fs/read_text_file` answers them, `fs/write_text_file` saves through them), answers permission
questions from a script, and records every update in arrival order. Every byte the agent
writes to its output is kept (`stdout`), so a test can check that nothing but JSON-RPC is there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, RequestError, connect_to_agent, text_block
from acp.core import ClientSideConnection
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    FileSystemCapabilities,
    PermissionOption,
    ReadTextFileResponse,
    RequestPermissionResponse,
    ToolCallUpdate,
)

from tests.acp.launch import LIMIT, Served, in_process_wanted, start_in_process, start_process

Answer = str | None  # an option id, or None for the "cancelled" outcome
Answerer = Callable[[ToolCallUpdate, list[PermissionOption]], Awaitable[Answer] | Answer]


@dataclass
class Asked:
    """One `session/request_permission` the agent sent."""

    session_id: str
    tool_call: dict[str, Any]
    options: list[dict[str, Any]]


@dataclass
class EditorClient:
    """The client side: buffers, scripted answers, and what the agent told it."""

    fs: bool = True
    save_on_write: bool = True
    answer: Answerer | None = None
    buffers: dict[Path, str] = field(default_factory=dict)
    updates: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    asked: list[Asked] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)
    writes: list[tuple[str, str]] = field(default_factory=list)
    on_read: Callable[[Path], None] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def capabilities(self) -> ClientCapabilities:
        fs = FileSystemCapabilities(read_text_file=self.fs, write_text_file=self.fs)
        return ClientCapabilities(fs=fs, terminal=True)  # KeSi must never use the terminal

    async def session_update(self, session_id: str, update: Any, **_: Any) -> None:
        self.updates.append((session_id, update.model_dump(by_alias=True, exclude_none=True)))
        self._poke()

    async def request_permission(
        self, session_id: str, tool_call: ToolCallUpdate, options: list[PermissionOption], **_: Any
    ) -> RequestPermissionResponse:
        self.asked.append(
            Asked(
                session_id,
                tool_call.model_dump(by_alias=True, exclude_none=True),
                [o.model_dump(by_alias=True, exclude_none=True) for o in options],
            )
        )
        self._poke()
        choice: Answer = "reject"
        if self.answer is not None:
            given = self.answer(tool_call, options)
            choice = await given if asyncio.iscoroutine(given) else given  # type: ignore[assignment]
        if choice is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=choice)
        )

    async def read_text_file(self, session_id: str, path: str, **_: Any) -> ReadTextFileResponse:
        self.reads.append(path)
        target = Path(path)
        if self.on_read is not None:
            self.on_read(target)
        if target in self.buffers:
            return ReadTextFileResponse(content=self.buffers[target])
        try:
            content = await asyncio.to_thread(target.read_text, encoding="utf-8")
            return ReadTextFileResponse(content=content)
        except OSError as exc:
            raise RequestError(-32002, f"cannot read {path}: {exc.strerror}") from exc

    async def write_text_file(self, session_id: str, path: str, content: str, **_: Any) -> None:
        self.writes.append((path, content))
        target = Path(path)
        self.buffers[target] = content
        if self.save_on_write:
            await asyncio.to_thread(target.write_text, content, encoding="utf-8")
            del self.buffers[target]

    def on_connect(self, conn: Any) -> None:
        return None

    def _poke(self) -> None:
        self.changed.set()

    # -- what the agent said ---------------------------------------------------------------

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [u for _, u in self.updates if u.get("sessionUpdate") == kind]

    def text(self) -> str:
        """Everything the agent said in message chunks (notices included)."""
        return "".join(u["content"]["text"] for u in self.of_kind("agent_message_chunk"))

    def model_text(self) -> str:
        """The model's words alone (no notices)."""
        return "".join(
            u["content"]["text"] for u in self.of_kind("agent_message_chunk") if "_meta" not in u
        )

    def notices(self, kind: str | None = None) -> list[str]:
        found = [
            (u["_meta"]["kesi"]["notice"], u["content"]["text"])
            for u in self.of_kind("agent_message_chunk")
            if "_meta" in u
        ]
        return [said for k, said in found if kind is None or k == kind]

    def cards(self) -> list[dict[str, Any]]:
        return self.of_kind("tool_call")

    def card_updates(self, call_id: str) -> list[dict[str, Any]]:
        return [u for u in self.of_kind("tool_call_update") if u["toolCallId"] == call_id]

    async def wait_for(self, check: Callable[[], object], seconds: float = 30) -> None:
        """Wait (event-driven) until `check()` holds."""
        async with asyncio.timeout(seconds):
            while not check():
                self.changed.clear()
                await self.changed.wait()


@dataclass
class Agent:
    """A running `kesi-lsp acp` and the connection to it."""

    conn: ClientSideConnection
    served: Served
    client: EditorClient
    stdout: bytearray
    stderr: bytearray

    @property
    def stdin(self) -> asyncio.StreamWriter:
        """The agent's input, for a test that writes raw lines to it."""
        return self.served.stdin

    @property
    def process(self) -> asyncio.subprocess.Process:
        """The `kesi-lsp acp` process (only for `acp_agent(..., process=True)`)."""
        assert self.served.process is not None, "this test needs acp_agent(..., process=True)"
        return self.served.process

    async def start(self, cwd: Path, **fields: Any) -> str:
        """initialize (once) and session/new in `cwd`; the session id."""
        session = await self.conn.new_session(cwd=str(cwd), mcp_servers=[], **fields)
        return session.session_id

    async def prompt(self, session_id: str, said: str) -> Any:
        return await self.conn.prompt(session_id=session_id, prompt=[text_block(said)])

    def messages(self) -> list[dict[str, Any]]:
        """Every line the agent wrote to stdout, parsed: each must be a JSON-RPC 2.0 message."""
        found = []
        for line in bytes(self.stdout).split(b"\n"):
            if not line:
                continue
            message = json.loads(line)
            assert message.get("jsonrpc") == "2.0", message
            assert "method" in message or "id" in message, message
            found.append(message)
        assert self.stdout.endswith(b"\n")
        return found


async def until(condition: Callable[[], object], seconds: float = 30) -> None:
    """Poll `condition` (the process table has no events) until it holds."""
    async with asyncio.timeout(seconds):
        while not condition():  # noqa: ASYNC110 - nothing to wait on but the condition
            await asyncio.sleep(0.02)


async def _tee(source: asyncio.StreamReader, target: asyncio.StreamReader, kept: bytearray) -> None:
    while chunk := await source.read(65536):
        kept.extend(chunk)
        target.feed_data(chunk)
    target.feed_eof()


async def _drain(source: asyncio.StreamReader, kept: bytearray) -> None:
    while chunk := await source.read(65536):
        kept.extend(chunk)


def agent_env(api: Any | None, **extra: str) -> dict[str, str]:
    """The environment `kesi-lsp acp` starts in: the scripted API, or no key at all."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "KESI_"))}
    if api is not None:
        env["ANTHROPIC_API_KEY"] = "sk-ant-test-not-a-real-key"
        env["ANTHROPIC_BASE_URL"] = api.base_url
    env.update(extra)
    return env


@contextlib.asynccontextmanager
async def acp_agent(
    env: Mapping[str, str],
    client: EditorClient | None = None,
    *,
    meta: Mapping[str, Any] | None = None,
    initialize: bool = True,
    process: bool = False,
    args: Sequence[str] = (),
) -> AsyncIterator[Agent]:
    """Start `kesi-lsp acp` (in a thread of this process unless `process` or `args`, its
    command-line arguments: tests/acp/launch.py), connect the package's client side to it,
    initialize."""
    client = client or EditorClient()
    if in_process_wanted(process or bool(args)):
        served = await start_in_process(env)
    else:
        served = await start_process(env, args)
    seen = asyncio.StreamReader(limit=LIMIT)
    stdout = bytearray()
    stderr = served.log
    pumps = [asyncio.ensure_future(_tee(served.stdout, seen, stdout))]
    if served.process is not None and served.process.stderr is not None:
        pumps.append(asyncio.ensure_future(_drain(served.process.stderr, stderr)))
    conn = connect_to_agent(client, served.stdin, seen)
    agent = Agent(conn, served, client, stdout, stderr)
    try:
        if initialize:
            await conn.initialize(
                protocol_version=PROTOCOL_VERSION,
                client_capabilities=client.capabilities(),
                **({"kesi": dict(meta)} if meta else {}),
            )
        yield agent
    finally:
        await _close(agent, pumps)


async def _close(agent: Agent, pumps: list[asyncio.Future[None]]) -> None:
    """Close stdin (the client goes away) and wait for the agent to end by itself."""
    with contextlib.suppress(Exception):
        await agent.conn.close()
    if not agent.stdin.is_closing():
        agent.stdin.close()
    try:
        if not await agent.served.ended():
            raise AssertionError("kesi-lsp acp did not end when its client went away")
    finally:
        await asyncio.gather(*pumps, return_exceptions=True)
