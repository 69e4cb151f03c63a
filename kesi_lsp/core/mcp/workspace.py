"""A folder's `.mcp.json`: the servers a project declares, started only once the user approves.

A cloned repository must not start programs by being opened (the reason a folder's settings may
not set `mcpServers`). So the file is read, but its servers are asked about first, through the
front end's prompt (`ServersRequest`: `window/showMessageRequest` over LSP,
`session/request_permission` over ACP), naming every program it would start, when the folder's
next run begins. The answer is remembered per folder and per server, against a hash of that
server's definition: a yes starts it now and whenever KeSi starts there again; a no is said
once a session and never asked again, until the definition changes (an edited server asks
again) or the user forgets the answers (`kesi-lsp mcp reset`). A server whose name the user's
own settings already use is the user's: the project's is not asked about.

The answers live in the user's state folder (`$XDG_STATE_HOME/kesi/mcp-approvals.json`, else
under `~/.local/state`), beside the saved conversations; with no state folder they last as long
as the process. Reading and writing are small file accesses, done in worker threads.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.approval import Choice, ServersRequest, consult_servers
from kesi_lsp.core.events import Event, Notice
from kesi_lsp.core.persistence import state_directory
from kesi_lsp.core.settings.mcp_servers import ServerConfig, parse_servers

log = logging.getLogger(__name__)

MCP_FILE: Final = ".mcp.json"
MAX_BYTES: Final = 256 * 1024
STORE: Final = "mcp-approvals.json"
APPROVED: Final = "approved"
DENIED: Final = "denied"


def digest(entry: object) -> str:
    """The hash of one server's definition as written (key order does not matter)."""
    canonical = json.dumps(entry, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class FolderServers:
    """What a folder's `.mcp.json` declares and what the user said about each server."""

    approved: tuple[ServerConfig, ...] = ()
    pending: tuple[ServerConfig, ...] = ()
    refused: tuple[ServerConfig, ...] = ()
    problems: tuple[str, ...] = ()
    digests: Mapping[str, str] = field(default_factory=dict)


def read_declared(
    root: Path, locale: Locale
) -> tuple[tuple[ServerConfig, ...], dict[str, str], list[str]]:
    """The servers of `root`'s `.mcp.json`, each one's hash, and a sentence per problem
    (an unreadable file, malformed servers: those are left out, the others stay)."""
    path = root / MCP_FILE
    try:
        if not path.is_file():
            return (), {}, []
        if path.stat().st_size > MAX_BYTES:
            raise ValueError(text("mcp.workspace.too_big", locale, limit=MAX_BYTES // 1024))
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return (), {}, [text("mcp.workspace.unreadable", locale, file=path, error=exc)]
    configs, problems = parse_servers(value, "workspace")
    entries = value.get("mcpServers", value) if isinstance(value, Mapping) else {}
    digests = {c.name: digest(entries.get(c.name)) for c in configs}
    said = [
        text(
            "mcp.workspace.invalid",
            locale,
            file=path,
            name=p.name,
            why=text(p.why, locale, detail=p.detail),
        )
        for p in problems
    ]
    return configs, digests, said


class Answers:
    """The user's answers about folders' servers: folder -> server -> {sha256, answer}."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._memory: dict[str, dict[str, dict[str, str]]] = {}
        self._lock = threading.Lock()

    def of(self, root: Path) -> dict[str, dict[str, str]]:
        with self._lock:
            return dict(self._load().get(str(root.resolve()), {}))

    def record(self, root: Path, digests: Mapping[str, str], answer: str) -> None:
        with self._lock:
            folders = self._load()
            folder = folders.setdefault(str(root.resolve()), {})
            for name, sha in digests.items():
                folder[name] = {"sha256": sha, "answer": answer}
            self._save(folders)

    def forget(self, root: Path) -> bool:
        """Forget every answer about `root` (the next run asks again); whether there were any."""
        with self._lock:
            folders = self._load()
            if folders.pop(str(root.resolve()), None) is None:
                return False
            self._save(folders)
            return True

    def _load(self) -> dict[str, dict[str, dict[str, str]]]:
        if self.path is None:
            return self._memory
        try:
            value = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:  # a damaged file: ask again, never assume a yes
            log.warning("MCP approvals in %s cannot be read (%s): asking again", self.path, exc)
            return {}
        folders = value.get("folders") if isinstance(value, dict) else None
        return folders if isinstance(folders, dict) else {}

    def _save(self, folders: dict[str, dict[str, dict[str, str]]]) -> None:
        if self.path is None:
            self._memory = folders
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        partial.write_text(json.dumps({"version": 1, "folders": folders}, indent=1), "utf-8")
        partial.replace(self.path)


class WorkspaceServers:
    """The `.mcp.json` of every folder of one front end, and the user's answers about them."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        directory = state_directory(environ)
        self.answers = Answers(directory.parent / STORE if directory is not None else None)
        self._told: set[tuple[Path, str]] = set()
        self._asking: dict[Path, asyncio.Lock] = {}

    def status(self, root: Path, taken: Collection[str], locale: Locale) -> FolderServers:
        """What `root`'s file declares (less the names in `taken`) and each server's answer."""
        configs, digests, problems = read_declared(root, locale)
        answers = self.answers.of(root)
        approved, pending, refused = [], [], []
        for config in configs:
            if config.name in taken:
                continue
            said = answers.get(config.name, {})
            if said.get("sha256") != digests[config.name]:
                pending.append(config)
            elif said.get("answer") == APPROVED:
                approved.append(config)
            else:
                refused.append(config)
        return FolderServers(
            tuple(approved), tuple(pending), tuple(refused), tuple(problems), digests
        )

    async def approved(self, root: Path, taken: Collection[str]) -> tuple[ServerConfig, ...]:
        """The servers of `root` the user approved before (nothing is asked)."""
        return (await asyncio.to_thread(self.status, root, taken, "en")).approved

    async def settle(
        self,
        root: Path,
        taken: Collection[str],
        approver: object,
        locale: Locale,
        emit: Callable[[Event], None],
    ) -> tuple[ServerConfig, ...]:
        """The approved servers of `root`, asking first about those never answered (or changed
        since); problems and refusals are said once a session."""
        lock = self._asking.setdefault(root, asyncio.Lock())
        async with lock:  # two runs of one folder ask once
            status = await asyncio.to_thread(self.status, root, taken, locale)
            for problem in status.problems:
                self._say_once(root, problem, emit)
            approved, refused = list(status.approved), list(status.refused)
            if status.pending:
                yes = await self._ask(root, status, approver, locale)
                (approved if yes else refused).extend(status.pending)
            if refused:
                names = text("common.list_sep", locale).join(c.name for c in refused)
                self._say_once(root, text("mcp.workspace.refused", locale, names=names), emit)
            return tuple(approved)

    async def _ask(
        self, root: Path, status: FolderServers, approver: object, locale: Locale
    ) -> bool:
        programs = tuple(programs_of(status.pending, locale))
        choice = await consult_servers(approver, ServersRequest(root, programs))
        yes = choice is Choice.ALLOW_ALWAYS
        asked = {c.name: status.digests[c.name] for c in status.pending}
        await asyncio.to_thread(self.answers.record, root, asked, APPROVED if yes else DENIED)
        log.info("MCP: %s of %s %s", ", ".join(asked), root, APPROVED if yes else DENIED)
        return yes

    def _say_once(self, root: Path, said: str, emit: Callable[[Event], None]) -> None:
        if (root, said) not in self._told:
            self._told.add((root, said))
            emit(Notice("info", said))


def programs_of(configs: Sequence[ServerConfig], locale: Locale) -> list[str]:
    """Each server as the question names it: `name: what it runs`, and when it would reach
    the network."""
    shown = []
    for config in configs:
        line = f"{config.name}: {config.program_line()}"
        if config.network:
            line += " " + text("mcp.workspace.with_network", locale)
        shown.append(line)
    return shown


def merged(
    own: Sequence[ServerConfig], workspace: Sequence[ServerConfig]
) -> tuple[ServerConfig, ...]:
    """The user's servers, then the folder's approved ones (a name is the user's first)."""
    names = {c.name for c in own}
    return (*own, *(c for c in workspace if c.name not in names))
