"""KeSi as an ACP agent: the methods a client calls, each turned into the core's terms.

- `initialize`: protocol version 1, text / embedded resources / resource links in prompts (no
  images, no audio), no `session/load`, MCP over stdio, http and sse, no sign-in methods; the
  client's `fs` capabilities and the settings (`_meta.kesi` over the `KESI_*` environment) are kept;
- `session/new`: `cwd` must be an absolute, existing folder, and becomes the fence; its MCP
  servers (stdio, http, sse) start in the background beside the user's own (`_meta` names those
  connecting, a malformed one is said at the first prompt); extra folders are reported as not
  added, never silently dropped; the session's modes are KeSi's two approval modes;
- `session/prompt`: one run of the core, answered when it ends (`outcome`); a second prompt
  while the session's run goes on is refused, as the LSP server refuses a second run;
- `session/cancel`: the seed's Ctrl-C for the session's run (the prompt answers `cancelled`);
- `session/set_mode`, and `session/set_config_option` on the `mode` option: "ask" or
  "acceptEdits" for this session (`modes.py`: the modes offered both ways).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from acp import PROTOCOL_VERSION
from acp.schema import (
    AgentCapabilities,
    ClientCapabilities,
    Implementation,
    InitializeResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
)

from kesi_lsp import __version__
from kesi_lsp.acp.client import AcpClient, ClientFeatures
from kesi_lsp.acp.dispatch import request_meta
from kesi_lsp.acp.errors import bad_params, session_busy, unknown_session
from kesi_lsp.acp.modes import MODE_OPTION, config_options, mode_state
from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    APPROVAL_MODES,
    EnvironmentSettings,
    ParsedSettings,
    parse_settings,
    settings_section,
)

if TYPE_CHECKING:
    from kesi_lsp.acp.prompt_content import Block
    from kesi_lsp.acp.sessions import AcpSession, AcpSessions
    from kesi_lsp.acp.task_cards import TaskCards
    from kesi_lsp.core import Run, Runs, Runtime

log = logging.getLogger(__name__)

STOP_SECONDS: Final = 10.0  # a run gets this long to wind down (SIGTERM → 3 s → SIGKILL fits)


class KesiAgent:
    """The agent side of one ACP connection: its sessions and their runs.

    Why the run machinery is loaded late: `initialize` needs only the settings and the
    answer's schema, while the runtime, the sessions and the runs bring the core's sandbox,
    audit, redaction and delivery modules, about 70 ms of imports here before a one-shot
    client's first answer (bench/README §11). They load on first use: the runtime when the
    answer to `initialize` has left (`sent`, which starts the model SDK's loading too), the
    rest with the first session.
    """

    def __init__(self, runtime: Callable[[], Runtime], env_settings: EnvironmentSettings) -> None:
        self._make_runtime = runtime
        self._env_settings = env_settings
        self.parsed: ParsedSettings = parse_settings(env_settings, editor="acp")
        self.client: AcpClient | None = None  # set by the connection (app.py)
        self._starting: set[asyncio.Task[None]] = set()
        # The run each session's pending `session/prompt` is waiting for, and the runs a
        # `session/cancel` asked about before their prompt was answered: a cancel that arrives
        # as the last round ends still answers `cancelled`, as ACP requires.
        self._prompting: dict[str, Run] = {}
        self._cancel_asked: set[str] = set()
        self._prepare_once_answered = False
        self._preparing: asyncio.Task[None] | None = None
        self._cards: list[TaskCards] = []  # each session's background tasks, as cards

    @functools.cached_property
    def runtime(self) -> Runtime:
        """The core's runtime for this connection, built on first use."""
        return self._make_runtime()

    @functools.cached_property
    def sessions(self) -> AcpSessions:
        from kesi_lsp.acp.sessions import AcpSessions

        return AcpSessions()

    @functools.cached_property
    def runs(self) -> Runs:
        from kesi_lsp.core import Runs

        return Runs()

    def sent(self) -> None:
        """A message went out to the client. The first after `initialize` is its answer: only
        then does the agent load the model SDK, in the background (a one-shot client sends its
        prompt right away, and the SDK's seconds of imports are the floor of its first
        request; loading it before the answer would put them in front of `initialize` too)."""
        if self._prepare_once_answered:
            self._prepare_once_answered = False
            self._preparing = asyncio.ensure_future(
                self.runtime.prepare_agent(self.parsed.settings)
            )

    @property
    def locale(self) -> Locale:
        return self.parsed.settings.locale

    def _client(self) -> AcpClient:
        assert self.client is not None, "the connection sets the client before serving"
        return self.client

    # -- initialize -----------------------------------------------------------------------

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        client_info: Implementation | None = None,
        **_: Any,
    ) -> InitializeResponse:
        client = self._client()
        client.features = ClientFeatures.from_initialize(client_capabilities, client_info)
        self.parsed = parse_settings(
            self._env_settings, settings_section(request_meta()), editor="acp"
        )
        for problem in self.parsed.problems:
            log.warning("%s", problem)
        log.info(
            "client %s (protocol %s): %s", client.features.name, protocol_version, client.features
        )
        self._prepare_once_answered = self._preparing is None
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=False,
                prompt_capabilities=PromptCapabilities(
                    image=False, audio=False, embedded_context=True
                ),
                mcp_capabilities=McpCapabilities(http=True, sse=True),
            ),
            auth_methods=[],
            agent_info=Implementation(name="kesi", title="KeSi", version=__version__),
        )

    async def authenticate(self, method_id: str, **_: Any) -> None:
        raise bad_params(text("acp.error.no_login", self.locale), "noLogin", methodId=method_id)

    # -- sessions -------------------------------------------------------------------------

    async def new_session(
        self,
        cwd: str,
        mcp_servers: list[Any] | None = None,
        additional_directories: list[str] | None = None,
        **_: Any,
    ) -> NewSessionResponse:
        locale = self.locale
        folder = Path(cwd)
        if not folder.is_absolute():
            raise bad_params(text("acp.error.cwd_relative", locale, cwd=cwd), "cwdNotAbsolute")
        if not await asyncio.to_thread(folder.is_dir):
            raise bad_params(text("acp.error.cwd_missing", locale, cwd=cwd), "cwdMissing")
        session = self.sessions.new(folder, self.parsed.settings)
        left_out = list(additional_directories or [])
        connecting = self._start_mcp(session, mcp_servers or [])
        self._show_tasks(session)
        self._tell_once(session, left_out)
        log.info("session %s in %s", session.id, session.root)
        meta: dict[str, Any] = {"kesi": {"mcpServers": {"connecting": connecting}}}
        if left_out:
            meta["kesi"]["additionalDirectories"] = {"notAdded": left_out}
        settings = session.core.settings
        return NewSessionResponse(
            session_id=session.id,
            modes=mode_state(settings),
            config_options=config_options(settings),  # type: ignore[arg-type]
            field_meta=meta,
        )

    def _start_mcp(self, session: AcpSession, servers: list[Any]) -> list[str]:
        """The session's MCP servers (the client's, then the user's settings), started in the
        background; the names of the client's that will connect (the others are said)."""
        from kesi_lsp.acp.mcp_servers import acp_servers

        configs, problems = acp_servers(servers, self.locale)
        for problem in problems:
            log.warning("%s", problem)
            session.notices.append(("mcp", problem))
        settings = session.core.settings
        own = [c for c in settings.mcp_servers if c.name not in {s.name for s in configs}]
        session.core.settings = replace(settings, mcp_servers=(*own, *configs))
        session.core.mcp_key = session.id
        task = asyncio.ensure_future(  # with the folder's approved .mcp.json servers
            self.runtime.start_mcp(session.id, session.root, session.core.settings)
        )
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)
        return [c.name for c in configs]

    def _show_tasks(self, session: AcpSession) -> None:
        """The session's background tasks become tool call cards (`task_cards`)."""
        from kesi_lsp.acp.task_cards import TaskCards
        from kesi_lsp.core import redactor_for

        settings = session.core.settings
        redact = redactor_for(self.runtime.environ, settings.locale, settings.pass_env)
        cards = TaskCards(self._client(), session, redact)
        cards.attach()
        self._cards.append(cards)

    def _tell_once(self, session: AcpSession, dirs: list[str]) -> None:
        """What the session's first prompt starts with: what was not connected, the settings
        that could not be used (each also in the log)."""
        locale = self.locale
        if dirs:
            said = text(
                "acp.dirs_not_supported", locale, cwd=str(session.cwd), dirs=", ".join(dirs)
            )
            log.warning("%s", said)
            session.notices.append(("directories", said))
        session.notices += [("settings", problem) for problem in self.parsed.problems]

    def _session(self, session_id: str) -> AcpSession:
        session = self.sessions.get(session_id)
        if session is None:
            raise unknown_session(session_id, self.locale)
        return session

    async def set_session_mode(
        self, session_id: str, mode_id: str, **_: Any
    ) -> SetSessionModeResponse:
        self._set_mode(self._session(session_id), mode_id)
        return SetSessionModeResponse()

    async def set_config_option(
        self, config_id: str, session_id: str, value: str | bool, **_: Any
    ) -> SetSessionConfigOptionResponse:
        """The approval mode as a config option (the only one KeSi has)."""
        session = self._session(session_id)
        if config_id != MODE_OPTION:
            said = text("acp.error.no_option", self.locale, option=config_id, known=MODE_OPTION)
            raise bad_params(said, "unknownConfigOption")
        self._set_mode(session, str(value) if isinstance(value, str) else repr(value))
        return SetSessionConfigOptionResponse(
            config_options=config_options(session.core.settings)  # type: ignore[arg-type]
        )

    def _set_mode(self, session: AcpSession, mode_id: str) -> None:
        if mode_id not in APPROVAL_MODES:
            modes = ", ".join(APPROVAL_MODES)
            raise bad_params(
                text("acp.error.no_modes", self.locale, mode=mode_id, modes=modes), "unknownMode"
            )
        session.core.settings = replace(session.core.settings, approvals=mode_id)

    # -- prompts --------------------------------------------------------------------------

    async def prompt(self, session_id: str, prompt: list[Block], **_: Any) -> PromptResponse:
        from kesi_lsp.acp.frontend import AcpRun
        from kesi_lsp.acp.outcome import answer
        from kesi_lsp.acp.prompt_content import prompt_task
        from kesi_lsp.core import Run, drive

        session = self._session(session_id)
        locale = session.core.settings.locale
        if self.runs.active_for(session.core) is not None:
            raise session_busy(locale)
        task = prompt_task(session, prompt, locale)
        run = Run(session.core, task)
        frontend = AcpRun(self._client(), session, run)
        self.runs.start(run, lambda r: drive(r, self.runtime, frontend))
        assert run.task is not None
        self._prompting[session.id] = run
        try:
            finished = await asyncio.shield(run.task)
            await self._client().outbox.flush()
        except asyncio.CancelledError:  # the connection is closing: stop the run like Ctrl-C
            run.cancel()
            raise
        finally:
            self._prompting.pop(session.id, None)
        log.info("run %s in session %s: %s", run.id, session.id, finished.status)
        if run.id in self._cancel_asked:  # the cancel came as the run ended on its own
            self._cancel_asked.discard(run.id)
            return PromptResponse(stop_reason="cancelled")
        return answer(finished, locale)

    async def cancel(self, session_id: str, **_: Any) -> None:
        session = self.sessions.get(session_id)
        if session is None:
            log.info("session/cancel for unknown session %s", session_id)
            return
        pending = self._prompting.get(session_id)
        if pending is not None:
            self._cancel_asked.add(pending.id)
        run = self.runs.active_for(session.core)
        if run is not None and run.cancel():
            log.info("run %s cancelled by the client", run.id)

    async def stop(self) -> None:
        """The connection ends: every run stops the way Ctrl-C stops it, every session's
        background tasks stop (nothing KeSi started outlives its client; their cards say
        so), and a preparation still under way is dropped."""
        if self._preparing is not None:
            self._preparing.cancel()
        await self.runs.stop_all(STOP_SECONDS)
        for session in self.sessions.all():
            await session.core.tasks.stop_all()
        for cards in self._cards:  # each stopped task's card says so before the end
            await cards.close()
        await self._client().outbox.flush()

    async def aclose(self) -> None:
        """Let the runtime release the agent's model clients and stop its MCP servers, if
        the connection ever built it (a client gone before `initialize` did not)."""
        if "runtime" in self.__dict__:
            await self.runtime.aclose()
