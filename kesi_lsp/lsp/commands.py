"""The `kesi.*` commands (design §2.3): each takes one object argument and answers at once.

`kesi.fixThis` and `kesi.ask` start a run in the background and return its `runId`; the rest
act on the session of the workspace folder that contains `uri` (else the first folder).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import attrs
from lsprotocol import types

from kesi_lsp.catalog import text
from kesi_lsp.core import (
    Excerpt,
    GrantsView,
    Run,
    Usage,
    ask_task,
    cost_lines,
    describe_grants,
    describe_rule,
    grants_lines,
    is_ignored,
    line_span,
    network_rules_line,
    revoked_line,
    rules_line,
    select_excerpt,
)
from kesi_lsp.core import revoke as revoke_grants
from kesi_lsp.lsp.args import CommandError, invalid, read_args
from kesi_lsp.lsp.contract import (
    AskArgs,
    CancelArgs,
    CancelResult,
    CostResult,
    FixThisArgs,
    FolderArgs,
    MessageResult,
    NetworkView,
    PermissionsResult,
    RuleView,
    RunStarted,
    read,
)
from kesi_lsp.lsp.driver import drive_lsp_run
from kesi_lsp.lsp.folders import Folder, containing_folder, uri_to_path
from kesi_lsp.lsp.server import KesiServer
from kesi_lsp.lsp.stream import usage_view
from kesi_lsp.lsp.tasks import fix_task
from kesi_lsp.lsp.wire import plain_json_converter

log = logging.getLogger(__name__)

FIX_THIS = "kesi.fixThis"
ASK = "kesi.ask"
CANCEL = "kesi.cancel"
RESET = "kesi.reset"
COST = "kesi.cost"
PERMISSIONS = "kesi.permissions"
REVOKE = "kesi.revoke"
COMPACT = "kesi.compact"
SETTINGS_WAIT = 5.0


def target(ls: KesiServer, uri: str | None) -> tuple[Folder, Path | None]:
    """The folder (session) a command acts on, and the file `uri` names (if any)."""
    folders = ls.folders()
    locale = ls.locale_for(folders[0] if folders else None)
    if not folders:
        raise CommandError(text("lsp.no_folder", locale), "noWorkspaceFolder")
    if uri is None:
        return folders[0], None
    path = uri_to_path(uri)
    if path is None:
        raise CommandError(text("lsp.not_a_file", locale, uri=uri), "notAFile")
    folder = containing_folder(folders, path)
    if folder is None:
        raise CommandError(text("lsp.outside_folders", locale, path=str(path)), "outsideWorkspace")
    resolved = path.resolve()
    if resolved != folder.path and is_ignored(folder.path, resolved):
        message = text("lsp.ignored_path", locale, path=rel_path(folder, resolved))
        raise CommandError(message, "ignoredPath")
    return folder, resolved


def rel_path(folder: Folder, path: Path) -> str:
    return path.relative_to(folder.path).as_posix() if path != folder.path else "."


async def excerpt(ls: KesiServer, folder: Folder, path: Path, rng: types.Range) -> Excerpt:
    """The numbered lines `rng` covers, from the editor's buffer (else the disk), clipped to
    the excerpt's caps (`kesi_lsp.core.tasks`)."""
    try:
        source = (await ls.documents.file_text(path)).text
    except (OSError, UnicodeDecodeError) as exc:
        message = text(
            "lsp.unreadable", ls.locale_for(folder), path=rel_path(folder, path), error=str(exc)
        )
        raise CommandError(message, "unreadable") from exc
    return select_excerpt(source, line_span(rng.start.line, rng.end.line, rng.end.character))


async def _settled(ls: KesiServer) -> None:
    """Wait (briefly) for the editor's first settings answer, so a command sent right after
    start-up builds its task in the user's language and runs with the user's settings."""
    pending = ls.config_ready
    if pending is not None and not pending.done():
        await asyncio.wait({pending}, timeout=SETTINGS_WAIT)


async def _start(
    ls: KesiServer,
    folder: Folder,
    prompt: str,
    *,
    compact: bool = False,
    title: str | None = None,
    place: str | None = None,
) -> RunStarted:
    """Start a run in `folder`'s session unless one is already going there (`compact`: the
    run is a summary of the conversation, kesi.compact; `title` and `place` name its change
    set's row, "Fix this · calc.py:2", the prompt's first line when no title is given)."""
    await _settled(ls)
    settings = ls.settings_for(folder).settings
    busy = ls.runs.active_in(folder.path)  # before the settings change under a live run
    if busy is not None:
        key = "lsp.busy_compact" if compact else "lsp.busy"
        raise CommandError(text(key, settings.locale), "busy", runId=busy.id)
    session = await ls.sessions.open(folder, settings)
    if ls.runs.active_in(folder.path) is not None:  # another command started one meanwhile
        raise CommandError(text("lsp.busy", settings.locale), "busy")
    session.settings = settings
    runner = ls.host.runtime.compaction if compact else None
    started = Run(session, prompt, runner=runner, title=title, place=place)
    run = ls.runs.start(started, lambda r: drive_lsp_run(ls.host, r, folder))
    log.info("run %s started in %s", run.id, folder.path)
    return RunStarted(run_id=run.id)


async def fix_this(ls: KesiServer, *args: Any) -> RunStarted:
    arg = read_args(FIX_THIS, args, FixThisArgs)
    folder, path = target(ls, arg.uri)
    if path is None or path == folder.path:
        raise invalid(f"{FIX_THIS}: 'uri' must name a file")
    await _settled(ls)
    shown = await excerpt(ls, folder, path, arg.range)
    locale = ls.locale_for(folder)
    rel = rel_path(folder, path)
    task = fix_task(
        rel, shown.text, shown.lines, arg.diagnostics, arg.instruction, locale, shown=shown.shown
    )
    at = arg.diagnostics[0].range.start if arg.diagnostics else arg.range.start  # the problem's
    place = f"{rel}:{at.line + 1}"
    return await _start(ls, folder, task, title=text("story.run.fix", locale), place=place)


async def ask(ls: KesiServer, *args: Any) -> RunStarted:
    arg = read_args(ASK, args, AskArgs)
    prompt, rng = arg.prompt, arg.range
    if not prompt.strip():
        raise invalid(f"{ASK}: 'prompt' is empty")
    folder, path = target(ls, arg.uri)
    rel = rel_path(folder, path) if path is not None and path != folder.path else None
    await _settled(ls)
    shown: Excerpt | None = None
    if rel is not None and path is not None and rng is not None:
        shown = await excerpt(ls, folder, path, rng)
    locale = ls.locale_for(folder)
    if shown is None:
        task = ask_task(prompt, rel, None, None, locale)
    else:
        task = ask_task(prompt, rel, shown.text, shown.lines, locale, shown=shown.shown)
    place = rel if rel is None or rng is None else f"{rel}:{rng.start.line + 1}"
    return await _start(ls, folder, task, place=place)


def cancel(ls: KesiServer, *args: Any) -> CancelResult:
    arg = read_args(CANCEL, args, CancelArgs)
    if arg.run_id is not None:
        run = ls.runs.get(arg.run_id)
        return CancelResult(cancelled=run is not None and run.cancel())
    if arg.uri is not None:
        folder, _ = target(ls, arg.uri)
        run = ls.runs.active_in(folder.path)
        return CancelResult(cancelled=run is not None and run.cancel())
    stopped = [run.cancel() for run in ls.runs.live()]  # every run, no short-circuit
    return CancelResult(cancelled=any(stopped))


async def compact(ls: KesiServer, *args: Any) -> RunStarted:
    """Summarise the folder's older turns now, as a short run of its own (its `runId`)."""
    folder, _ = target(ls, read_args(COMPACT, args, FolderArgs).uri)
    return await _start(ls, folder, "", compact=True)


def _say(ls: KesiServer, lines: list[str]) -> None:
    """Show the seed's answer to `/reset`, `/cost`, `/permissions` and `/revoke` in editors
    without a KeSi client.

    Our own clients (they announce `experimental.kesi.stream`) show the result's `lines` or
    `message` themselves; any other editor (Helix's `:lsp-workspace-command`, eglot) would show
    nothing at all.
    """
    if not ls.features.stream:
        ls.show("\n".join(lines))


def reset(ls: KesiServer, *args: Any) -> MessageResult:
    """Clear the conversation and the read records (seed `/reset`); `message` is the seed's
    「日記與檔案版本紀錄已清空，我們重新開始」 in the session's locale."""
    folder, _ = target(ls, read_args(RESET, args, FolderArgs).uri)
    locale = ls.locale_for(folder)
    if ls.runs.active_in(folder.path) is not None:
        raise CommandError(text("lsp.busy_reset", locale), "busy")
    ls.sessions.forget(folder)  # the conversation, its read records and its saved copy
    message = text("lsp.reset_done", locale)
    _say(ls, [message])
    return MessageResult(message=message)


async def cost(ls: KesiServer, *args: Any) -> CostResult:
    """The session's bill so far (seed `/cost`), a resumed conversation's included: the usage
    figures, and `lines`, the seed's report of them in the session's locale."""
    folder, _ = target(ls, read_args(COST, args, FolderArgs).uri)
    session = ls.sessions.peek(folder)
    if session is None and ls.sessions.store is not None:
        session = await ls.sessions.open(folder, ls.settings_for(folder).settings)
    usage = session.usage if session is not None else Usage()
    lines = cost_lines(usage, ls.locale_for(folder))
    _say(ls, lines)
    return CostResult(**attrs.asdict(usage_view(usage), recurse=False), lines=lines)


def permissions(ls: KesiServer, *args: Any) -> PermissionsResult:
    """The session's grants (seed `/permissions`); `lines` is the seed's two-line listing,
    plus one when `kesi.approvals` lets every edit through (no grant is needed then), and the
    permission rules in force with where each came from (`rules`, and a last line when there
    are any: without rules the listing stays the seed's own)."""
    folder, _ = target(ls, read_args(PERMISSIONS, args, FolderArgs).uri)
    session = ls.sessions.peek(folder)
    view = describe_grants(session) if session is not None else GrantsView([], [], [])
    settings = ls.settings_for(folder).settings
    lines = grants_lines(view, settings.locale)
    converter = plain_json_converter()
    if settings.approvals == "acceptEdits":
        lines.append(text("lsp.permissions.edits_accepted", settings.locale))
    if settings.permissions.rules:
        lines.append(rules_line(settings.permissions, settings.locale))
    network = network_rules_line(settings)
    if network is not None:
        lines.append(network)
    _say(ls, lines)
    return PermissionsResult(
        commands=view.commands,
        files=view.files,
        hosts=view.hosts,
        approvals=settings.approvals,
        rules=[read(describe_rule(r), RuleView, converter) for r in settings.permissions.rules],
        network=NetworkView(
            mode=settings.sandbox_network,
            allow=list(settings.network_allow),
            deny=list(settings.network_deny),
        ),
        lines=lines,
        tools=view.tools,
    )


def revoke(ls: KesiServer, *args: Any) -> MessageResult:
    """Clear the session's grants (seed `/revoke`); `message` says so in the seed's words."""
    folder, _ = target(ls, read_args(REVOKE, args, FolderArgs).uri)
    session = ls.sessions.peek(folder)
    if session is not None:
        revoke_grants(session)
    message = revoked_line(ls.locale_for(folder))
    _say(ls, [message])
    return MessageResult(message=message)


def register(server: KesiServer) -> None:
    server.command(FIX_THIS)(fix_this)
    server.command(ASK)(ask)
    server.command(CANCEL)(cancel)
    server.command(RESET)(reset)
    server.command(COST)(cost)
    server.command(PERMISSIONS)(permissions)
    server.command(REVOKE)(revoke)
    server.command(COMPACT)(compact)
