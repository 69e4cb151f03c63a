"""The server's life: initialize, settings, workspace folders, shutdown and exit.

Settings are pulled with `workspace/configuration` (section `kesi`, one item per folder) when
the client supports it, on `initialized` and after every `didChangeConfiguration`; otherwise
the pushed settings are used. Shutdown, exit and a lost connection all stop every run the
way Ctrl-C does before the server goes away (design §2.8).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Final

from lsprotocol import types

from kesi_lsp.core import SETTINGS_SECTION as SECTION
from kesi_lsp.core import settings_section as kesi_section
from kesi_lsp.lsp.capabilities import client_features, editor_of
from kesi_lsp.lsp.driver import run_for_token
from kesi_lsp.lsp.folders import Folder, uri_to_path
from kesi_lsp.lsp.log import attach_client_log
from kesi_lsp.lsp.server import KesiServer

log = logging.getLogger(__name__)

STOP_SECONDS: Final = 10.0  # a run gets this long to wind down (SIGTERM → 3 s → SIGKILL fits)
CONFIG_SECONDS: Final = 5.0


def initialize(ls: KesiServer, params: types.InitializeParams) -> None:
    ls.features = client_features(params.capabilities)
    ls.config.init_options = kesi_section(params.initialization_options)
    ls.config.editor = editor_of(params.client_info)
    _limit_messages(ls)
    log.info("client %s: %s", params.client_info.name if params.client_info else "?", ls.features)


async def initialized(ls: KesiServer, params: types.InitializedParams) -> None:
    attach_client_log(ls.wire)
    await refresh_settings(ls)
    ls.preparing = asyncio.ensure_future(prepare(ls))


async def prepare(ls: KesiServer) -> None:
    """Get the first run ready while the user is still reading code (issue 14): the sandbox
    of each folder and the agent itself (the SDK and its client), in the background, after
    start-up (the editor never waits for it) and without holding the event loop (the loading
    runs in a worker thread that hands the interpreter back often, and steps aside while the
    editor is talking to the server: `kesi_lsp.core.runs.loading`)."""
    folders = [(folder.path, ls.settings_for(folder).settings) for folder in ls.folders()]
    started = time.monotonic()
    try:
        await ls.host.runtime.prepare(folders, ls.busy)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the first run loads what is missing, and says what failed
        log.warning("could not prepare for the first run: %s", exc)
        return
    log.info("ready for the first run (prepared in %.1f s)", time.monotonic() - started)


async def refresh_settings(ls: KesiServer) -> None:
    """Pull the `kesi` section for every folder, then report bad values once."""
    task = asyncio.ensure_future(_pull(ls))
    ls.config_ready = task
    await task
    folders: list[Folder | None] = [*ls.folders()] or [None]
    for folder in folders:
        ls.settings_for(folder)
    _limit_messages(ls)


def _limit_messages(ls: KesiServer) -> None:
    """The reader's size limit is the process's, so it comes from the user's own layers
    (initialization options, the unscoped answer), never from a folder's settings."""
    ls.message_limit = ls.config.settings_for(None).settings.max_message_megabytes


async def _pull(ls: KesiServer) -> None:
    if not ls.features.configuration:
        return
    folders = ls.folders()
    items = [types.ConfigurationItem(scope_uri=f.uri, section=SECTION) for f in folders]
    if not items:
        items = [types.ConfigurationItem(section=SECTION)]
    try:
        answer = await asyncio.wait_for(
            ls.wire.request(types.WORKSPACE_CONFIGURATION, types.ConfigurationParams(items=items)),
            CONFIG_SECONDS,
        )
    except Exception as exc:  # ClientGoneError, a timeout, an error answer: keep defaults
        log.warning("could not read the kesi settings from the client: %s", exc)
        return
    values = list(answer) if isinstance(answer, list | tuple) else []
    own = {**ls.config.init_options, **ls.config.workspace}
    for folder, value in zip(folders, values, strict=False):
        ls.config.folders[folder.uri] = _without_credentials(value, folder.uri, own)
    if not folders and values and isinstance(values[0], Mapping):
        ls.config.workspace = values[0]


FOLDER_FORBIDDEN: Final = (
    "apiKey",
    "baseUrl",
    "sandbox",
    "commandMemoryLimit",
    "sandboxNetwork",
    "sandboxNetworkAllow",
    "sandboxNetworkDeny",
    "approvals",
    "permissions",
    "passEnv",
    "auditLog",
    "mcpServers",
)
"""Settings a folder-scoped answer may not set. The answer for a folder includes the folder's
own settings file (VS Code's `.vscode/settings.json`, Emacs' `.dir-locals.el`), which arrives
with a cloned repository: a `baseUrl` there would send the user's API key and code to whoever
wrote it, `sandbox: off` would unconfine the commands, `sandboxNetworkAllow` would open the
network to the project's own choice of hosts, `approvals: acceptEdits` would skip the review of
edits, `permissions` would grant the project's own commands, `passEnv` would hand the user's
tokens to the project's own scripts, `auditLog: false` would hide what it made KeSi do,
`mcpServers` would start the project's own programs (a folder's `.mcp.json` is asked about
first, `core.mcp.workspace`). Only the
initializationOptions and the unscoped answer (the user's own settings) may set them."""


def _without_credentials(
    value: object, uri: str, own: Mapping[str, object] | None = None
) -> Mapping[str, object]:
    """A folder's `kesi` section less `FOLDER_FORBIDDEN`, saying in the log what was dropped.

    Only a value that would have changed something is named: a folder's answer repeats the
    user's own values (VS Code merges the user's settings and the manifest's defaults into it,
    and our extension puts the user's values back in), so a value equal to `own`, what the
    user's layers say, comes from the user, and warning about it was a false alarm in every
    session of a folder without a settings file (issue 32)."""
    if not isinstance(value, Mapping):
        return {}
    own = own or {}
    dropped = sorted(
        key
        for key in FOLDER_FORBIDDEN
        if value.get(key) is not None and value.get(key) != own.get(key)
    )
    if dropped:
        log.warning(
            "ignoring %s from the settings of folder %s: a project may not choose where the "
            "API key goes, unconfine commands, skip reviews or grant itself permissions; set "
            "them in the user settings, "
            "the editor's initialization options or the environment",
            ", ".join(f"{SECTION}.{key}" for key in dropped),
            uri,
        )
    return {key: item for key, item in value.items() if key not in FOLDER_FORBIDDEN}


async def did_change_configuration(
    ls: KesiServer, params: types.DidChangeConfigurationParams
) -> None:
    ls.config.forget_reported()
    if not ls.features.configuration:
        ls.config.workspace = kesi_section(params.settings)
    await refresh_settings(ls)
    restarting = asyncio.ensure_future(_restart_mcp(ls))
    _RESTARTS.add(restarting)
    restarting.add_done_callback(_RESTARTS.discard)


_RESTARTS: set[asyncio.Task[None]] = set()


async def _restart_mcp(ls: KesiServer) -> None:
    """A changed `mcpServers` setting restarts the folder's servers at once, in the background
    (a server left out or added is seen in `kesi.mcp` before the next run)."""
    for folder in ls.folders():
        settings = ls.settings_for(folder).settings
        try:
            await ls.host.runtime.start_mcp(str(folder.path), folder.path, settings)
        except Exception as exc:  # the next run tries again and says why
            log.info("MCP servers of %s not restarted: %s", folder.path, exc)


async def did_change_folders(ls: KesiServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    """A removed folder takes its session (and stops any run and background task in it)."""
    for removed in params.event.removed:
        path = uri_to_path(removed.uri)
        root = path.resolve() if path is not None else None
        for run in ls.runs.live():
            if run.root == root:
                run.cancel()
        ls.config.folders.pop(removed.uri, None)
        if root is not None:
            ls.sessions.drop(root)  # its background tasks are stopped with it
            ls.host.runtime.mcp.drop(str(root))
    await refresh_settings(ls)


async def shutdown(ls: KesiServer, params: None) -> None:
    if ls.preparing is not None:
        ls.preparing.cancel()
    await ls.runs.stop_all(STOP_SECONDS)
    await ls.sessions.stop_tasks()  # nothing KeSi started outlives it
    if ls.sessions.store is not None:  # every conversation on disk before the process ends
        await asyncio.to_thread(ls.sessions.store.flush, STOP_SECONDS)
    await ls.host.runtime.aclose()


def exit_(ls: KesiServer, params: None) -> None:
    """Stop every run; asyncio then waits for them to wind down before the process ends.

    Deliberately synchronous: pygls exits right after this handler returns, and an awaiting
    handler would let it start reading the next message on a thread the exit then waits for.
    """
    ls.wire.closed = True
    for run in ls.runs.live():
        run.cancel()
    ls.sessions.kill_tasks()  # (no loop turn is left for the polite way)


def progress_cancel(ls: KesiServer, params: types.WorkDoneProgressCancelParams) -> None:
    run = run_for_token(ls.runs, params.token)
    if run is not None:
        log.info("progress cancel for run %s", run.id)
        run.cancel()


def register(server: KesiServer) -> None:
    server.feature(types.INITIALIZE)(initialize)
    server.feature(types.INITIALIZED)(initialized)
    server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(did_change_configuration)
    server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)(did_change_folders)
    server.feature(types.SHUTDOWN)(shutdown)
    server.feature(types.EXIT)(exit_)
    server.feature(types.WINDOW_WORK_DONE_PROGRESS_CANCEL)(progress_cancel)
