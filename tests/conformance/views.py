"""The three workspace views under the conformance suite (`kesi_lsp.testing.conformance`), each
driven through its real wire: the language server (a scripted agent, so the review is held
exactly where a case wants it) with the scripted editor of a preset; `kesi-lsp acp` with the
scripted Messages API and a scripted ACP client; the plain-disk view in this process."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp import RequestError
from lsprotocol import types

from kesi_lsp.core import Choice, DeliveryStatus, DiskWorkspace, EditRequest, FileChange
from kesi_lsp.core import refusal as seed_refusal
from kesi_lsp.scripted_api import reply, script, tool_use
from kesi_lsp.testing import ALLOW_ONCE, DENY, Editor, EditorRefusalError
from kesi_lsp.testing.conformance import (
    AFTER,
    BEFORE,
    COMMANDED,
    FILE,
    NEW,
    OLD,
    TYPED,
    Case,
    Client,
    Review,
    Seen,
)
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.lsp.clients import kesi_client
from tests.lsp.conftest import AgentCommand
from tests.lsp.reviews import outcomes
from tests.plugins.scripted_api import StartServer

LABEL = f"KeSi: edit_file {FILE}"


def _command_rewrites(path: Path) -> None:
    """A command (a formatter, `git checkout`) rewrites the file on disk."""
    path.write_text(COMMANDED, encoding="utf-8")


def _outcome(summary: str) -> tuple[str, str]:
    """The scripted agent's summary of a delivery -> (outcome, what the model was told)."""
    if summary.startswith("applied"):
        return "applied", summary
    if summary.startswith("rejected"):
        return "rejected", summary
    return "failed", summary.removeprefix("failed: ")


# -- the LSP view ----------------------------------------------------------------------------


@dataclass
class LspView:
    """The language server with the scripted editor of `preset` (its review route)."""

    preset: str
    scripted_agent: AgentCommand
    unsupported: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"lsp-{self.preset}"

    async def run(self, case: Case, root: Path) -> Seen:
        calc = root / FILE
        steps = [
            {"do": "read", "path": FILE},
            {"do": "edit", "path": FILE, "old": OLD, "new": NEW},
        ]
        async with kesi_client(self.preset, [root], server=self.scripted_agent(steps)) as client:
            run_id: asyncio.Future[str] = asyncio.get_running_loop().create_future()
            self._script(client, case, calc, run_id)
            if case.open:
                client.open(calc)
            started = await client.command("kesi.ask", {"prompt": "fix add"})
            run_id.set_result(started["runId"])
            done = await client.wait_finished(started["runId"])
            if done["status"] == "cancelled":
                outcome, told = "cancelled", ""
            else:
                outcome, told = _outcome(outcomes(client, started["runId"])[-1])
            buffer = client.buffers.get(client.buffers.uri(calc))
            shown = buffer.text if buffer is not None else None
            undoable = buffer is not None and any(label == LABEL for label, _ in buffer.undo)
            disk = calc.read_text(encoding="utf-8") if calc.exists() else None
            return Seen(outcome, told, disk, shown, undoable if buffer is not None else None)

    def _script(self, client: Editor, case: Case, calc: Path, run_id: asyncio.Future[str]) -> None:
        """The user's answer to whichever review this client shows, and how it applies."""

        async def decide(params: Any) -> bool:
            if case.review is Review.TYPE:
                client.type_text(calc, "def add", "def plus")
                await client.sync()
            elif case.review is Review.DISK:
                _command_rewrites(calc)
            elif case.review is Review.CANCEL:
                await client.command("kesi.cancel", {"runId": await run_id})
                await client.wait_finished(await run_id)
            return case.review is not Review.REJECT  # a late yes after a cancel, too

        async def prompt(params: Any) -> str:
            return ALLOW_ONCE if await decide(params) else DENY

        async def review(params: Any) -> str:
            return "accept" if await decide(params) else "reject"

        client.answer_prompt = prompt
        client.answer_review = review
        client.answer_preview = decide
        if case.client is Client.ERRORS:

            def refuse(params: types.ApplyWorkspaceEditParams) -> None:
                raise EditorRefusalError(message="the editor failed to apply it")

            client.before_apply = refuse
        elif case.client is Client.IGNORES:
            client._apply = lambda edit, label: types.ApplyWorkspaceEditResult(applied=True)  # type: ignore[method-assign]


# -- the ACP view ----------------------------------------------------------------------------


@dataclass
class AcpView:
    """`kesi-lsp acp` with the scripted Messages API and a scripted ACP client; an open file
    is one the client holds a buffer for (and does not save on write)."""

    scripted_api: StartServer
    name: str = "acp"
    unsupported: dict[str, str] = field(default_factory=dict)

    async def run(self, case: Case, root: Path) -> Seen:
        calc = root / FILE
        edit = tool_use("edit_file", {"file_path": FILE, "old_string": OLD, "new_string": NEW})
        api = self.scripted_api(
            script(
                reply(tool_use("read_file", {"file_path": FILE})),
                reply(edit),
                reply("Done."),
            )
        )
        holder: dict[str, Any] = {}
        client = EditorClient(answer=self._answer(case, calc, holder), save_on_write=not case.open)
        if case.open:
            client.buffers[calc] = BEFORE
        self._misbehave(client, case)
        async with acp_agent(agent_env(api), client) as agent:
            holder["agent"] = agent
            holder["session"] = session = await agent.start(root)
            done = await agent.prompt(session, "fix add")
        disk = calc.read_text(encoding="utf-8") if calc.exists() else None
        shown = client.buffers.get(calc)
        if done.stop_reason == "cancelled":
            return Seen("cancelled", "", disk, shown)
        told, is_error = _last_tool_result(api.requests[-1].body["messages"])
        if not is_error:
            outcome = "applied"
        elif told == seed_refusal(EditRequest, "en").message:
            outcome = "rejected"
        else:
            outcome = "failed"
        return Seen(outcome, told, disk, shown)

    @staticmethod
    def _answer(case: Case, calc: Path, holder: dict[str, Any]) -> Any:
        async def answer(call: Any, options: Any) -> str | None:
            if case.review is Review.TYPE:
                holder["agent"].client.buffers[calc] = TYPED  # the user types in the editor
            elif case.review is Review.DISK:
                _command_rewrites(calc)
            elif case.review is Review.CANCEL:
                await holder["agent"].conn.cancel(session_id=holder["session"])
                return None  # ACP: the client answers a pending question `cancelled`
            return "reject-once" if case.review is Review.REJECT else "allow-once"

        return answer

    @staticmethod
    def _misbehave(client: EditorClient, case: Case) -> None:
        if case.client is Client.ERRORS:

            async def failing(session_id: str, path: str, content: str, **_: Any) -> None:
                raise RequestError(-32603, "the buffer is read-only")

            client.write_text_file = failing  # type: ignore[method-assign]
        elif case.client is Client.IGNORES:

            async def ignoring(session_id: str, path: str, content: str, **_: Any) -> None:
                return None

            client.write_text_file = ignoring  # type: ignore[method-assign]


def _last_tool_result(messages: list[dict[str, Any]]) -> tuple[str, bool]:
    for message in reversed(messages):
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                body = block.get("content")
                if isinstance(body, list):
                    body = "".join(part.get("text", "") for part in body)
                return str(body), bool(block.get("is_error"))
    raise AssertionError("no tool result reached the model")


# -- the plain-disk view ---------------------------------------------------------------------


class _DiskUser:
    """The approver of the plain-disk view: the user at the review, as the case says."""

    def __init__(self, case: Case, path: Path) -> None:
        self.case = case
        self.path = path
        self.asked = asyncio.Event()

    async def approve_edit(self, request: EditRequest) -> Choice:
        self.asked.set()
        if self.case.review is Review.DISK:
            _command_rewrites(self.path)
        elif self.case.review is Review.CANCEL:
            await asyncio.Event().wait()  # until the run is cancelled
        return Choice.DENY if self.case.review is Review.REJECT else Choice.ALLOW_ONCE

    async def approve_command(self, request: Any) -> Choice:
        return Choice.DENY


@dataclass
class DiskView:
    """`DiskWorkspace`, the view of the demo and of editors without buffers, in process."""

    name: str = "disk"
    unsupported: dict[str, str] = field(
        default_factory=lambda: {
            "typed-during-review": "no buffer: typing on plain disk is the disk case",
            "applied-without-a-change": "no client: the write is the view's own",
            "client-error": "no client: the write is the view's own",
        }
    )

    async def run(self, case: Case, root: Path) -> Seen:
        calc = root / FILE
        user = _DiskUser(case, calc)
        view = DiskWorkspace(root, user)
        change = FileChange("edit_file", calc, FILE, BEFORE, AFTER)
        task = asyncio.ensure_future(view.deliver(change, review=True))
        if case.review is Review.CANCEL:
            await user.asked.wait()
            task.cancel()
        try:
            delivery = await task
        except asyncio.CancelledError:
            return Seen("cancelled", "", calc.read_text(encoding="utf-8"), None)
        disk = calc.read_text(encoding="utf-8") if calc.exists() else None
        outcome = {
            DeliveryStatus.APPLIED: "applied",
            DeliveryStatus.REJECTED: "rejected",
            DeliveryStatus.FAILED: "failed",
        }[delivery.status]
        return Seen(outcome, delivery.reason or delivery.note, disk, None)
