"""How KeSi reaches one configured server: a stdio program inside the command sandbox, or a
streamable-HTTP (or SSE) endpoint with the configured headers.

A stdio server is a command like any other the agent starts: it runs through the session's
sandbox (bubblewrap on Linux: home and secrets unreadable, no network, the workspace writable),
with two per-server choices from its settings: `network` (off by default: on, the server gets
what a sandboxed command gets, the allow-list proxy's forwarder in front of it and a channel of
the proxy outside, `bridge`; never the machine's own network) and `workspace: "read"` (the
workspace mounted read-only). So that a server installed outside the
system folders can start, the folder of its program (and of any absolute path among its
arguments, up to the `node_modules` or environment around it) is readable too, read-only,
through the same toolchain rules that keep home's secrets hidden (`toolchain.mountable`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import shlex
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

from kesi_lsp.core.mcp.stdio import ServerOutput, stdio_streams
from kesi_lsp.core.sandbox import NetworkBridge, Sandbox, children
from kesi_lsp.core.sandbox.bubblewrap import BubblewrapSandbox
from kesi_lsp.core.settings.mcp_servers import ServerConfig

HTTP_TIMEOUT = 30.0


def program_folders(config: ServerConfig, env: Mapping[str, str], root: Path) -> list[str]:
    """The folders a stdio server's program needs to read: its program's (real) folder, and
    for each existing absolute path among its arguments the `node_modules` (or the folder)
    holding it. FileNotFoundError when the program is nowhere on PATH."""
    program = Path(children.program_path(config.command, env, root))
    folders = [str(program.parent), str(program.resolve().parent)]
    for arg in config.args:
        path = Path(arg)
        if not path.is_absolute() or not path.exists():
            continue
        real = path.resolve()
        modules = [p for p in real.parents if p.name == "node_modules"]
        folders.append(str(modules[-1] if modules else real if real.is_dir() else real.parent))
    return folders


def server_sandbox(
    sandbox: Sandbox, config: ServerConfig, environ: Mapping[str, str], root: Path
) -> tuple[Sandbox, dict[str, str]]:
    """The sandbox one stdio server runs in, and the environment it starts with (the host's
    scrubbed as for commands, then the server's own `env`, which the user wrote for it)."""
    extra = program_folders(config, environ, root)
    path = os.pathsep.join([*extra, environ.get("PATH", "")])
    wider = {**environ, "PATH": path}
    if isinstance(sandbox, BubblewrapSandbox):
        sandbox = dataclasses.replace(sandbox, environ=wider)
    env = sandbox.environment(wider, root)
    env.update(dict(config.env))
    return sandbox, env


def server_argv(
    sandbox: Sandbox, config: ServerConfig, root: Path, bridge: NetworkBridge | None = None
) -> list[str]:
    """The argv that starts the server's program through the sandbox's shell (behind the
    proxy's forwarder when `bridge` is its way out)."""
    command = "exec " + shlex.join([config.command, *config.args])
    if not isinstance(sandbox, BubblewrapSandbox):
        if bridge is None:
            return sandbox.argv(command, root)
        return sandbox.argv(command, root, network=bridge)
    spec = sandbox.spec(command, root, network=bridge)
    bwrap = [str(arg) for arg in spec["bwrap"]]  # type: ignore[attr-defined]
    if config.read_only:
        at = _workspace_bind(bwrap, str(root.resolve()))
        if at is not None:
            bwrap[at] = "--ro-bind"
    spec["bwrap"] = bwrap
    return [sandbox.python, "-I", "-S", sandbox.guard, json.dumps(spec, ensure_ascii=False)]


def _workspace_bind(args: list[str], root: str) -> int | None:
    for at in range(len(args) - 2):
        if args[at] == "--bind" and args[at + 1] == root and args[at + 2] == root:
            return at
    return None


@contextlib.asynccontextmanager
async def open_stdio(
    config: ServerConfig,
    sandbox: Sandbox,
    environ: Mapping[str, str],
    root: Path,
    output: ServerOutput,
    bridge: NetworkBridge | None = None,
) -> AsyncIterator[tuple[object, object]]:
    """The SDK's stream pair to a sandboxed stdio server (see the module text). The sandbox's
    mounts are worked out in a worker thread: they look at the disk, and the event loop is the
    editor's."""
    confined, env = await asyncio.to_thread(server_sandbox, sandbox, config, environ, root)
    argv = await asyncio.to_thread(server_argv, confined, config, root, bridge)
    async with stdio_streams(argv, env, root, output) as streams:
        yield streams


def has_bearer(config: ServerConfig) -> bool:
    """Whether the user's settings carry the server's authorization themselves."""
    return any(key.lower() == "authorization" for key, _ in config.headers)


def stored_auth(config: ServerConfig, auth_folder: Path | None) -> object | None:
    """The SDK's OAuth provider over the user's sign-in to this server (`core.mcp.tokens`),
    so that an expired access token is refreshed; None when the settings carry a bearer
    header or the user never signed in (a 401 then says how to)."""
    from kesi_lsp.core.mcp.signin import provider
    from kesi_lsp.core.mcp.tokens import TokenFile

    if auth_folder is None or has_bearer(config) or config.transport != "http":
        return None
    store = TokenFile(auth_folder, config.url, config.name)
    return provider(config, store) if store.signed_in() else None


@contextlib.asynccontextmanager
async def open_http(
    config: ServerConfig, output: ServerOutput, auth_folder: Path | None = None
) -> AsyncIterator[tuple[object, object]]:
    """The SDK's stream pair to a remote server, the configured headers on every request
    (and the stored sign-in, `stored_auth`). Each answer's status is kept
    (`output.http_status`): the SDK turns a 401 into a generic error, and "this server needs
    authorization" must be said as such."""
    import httpx2
    from mcp.client.sse import sse_client
    from mcp.client.streamable_http import streamable_http_client

    headers = dict(config.headers)
    if config.transport == "sse":
        async with sse_client(config.url, headers=headers, timeout=HTTP_TIMEOUT) as streams:
            yield streams[0], streams[1]
        return

    async def seen(response: httpx2.Response) -> None:
        said = output.http_status
        if response.status_code >= 400 or said is None or said in (401, 403):  # signed in now
            output.http_status = response.status_code

    timeout = httpx2.Timeout(HTTP_TIMEOUT, read=300.0)
    hooks = {"response": [seen]}
    auth = await asyncio.to_thread(stored_auth, config, auth_folder)
    async with (
        httpx2.AsyncClient(
            headers=headers,
            timeout=timeout,
            event_hooks=hooks,
            auth=auth,  # type: ignore[arg-type]
        ) as client,
        streamable_http_client(config.url, http_client=client) as streams,
    ):
        yield streams[0], streams[1]
