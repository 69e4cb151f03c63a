"""A `session/cancel` that arrives as the run's last round ends (issue 30): the run finished on
its own, its `session/prompt` is not answered yet, and ACP says the answer must then be
`cancelled`, not `end_turn`. The moment is exact here: the agent in this process, a stand-in
run that ends at once, and the cancel sent right when the agent flushes the run's last
updates before it answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from acp import text_block

from kesi_lsp.acp.agent import KesiAgent
from kesi_lsp.acp.client import AcpClient
from kesi_lsp.core import EnvironmentSettings, RunFinished, Runtime, Usage


class Quiet:
    """A connection that takes every notification and no request."""

    async def send_notification(self, method: str, params: Any) -> None:
        return None

    async def send_request(self, method: str, params: Any) -> Any:
        raise ConnectionError(method)


async def done_at_once(ctx: Any, prompt: str) -> RunFinished:
    return RunFinished("done", "Done.", Usage())


async def test_a_cancel_as_the_last_round_ends_answers_cancelled(
    project: Path, tmp_path: Path
) -> None:
    env = {"HOME": str(tmp_path), "KESI_SANDBOX": "off", "PATH": "/usr/bin:/bin"}
    settings = EnvironmentSettings({"sandbox": "off"}, {})
    agent = KesiAgent(lambda: Runtime(env, done_at_once), settings)
    client = AcpClient(Quiet())  # type: ignore[arg-type]
    agent.client = client
    session = await agent.new_session(cwd=str(project))
    flush = client.outbox.flush

    async def cancel_then_flush() -> None:  # the user presses Stop right now
        await agent.cancel(session.session_id)
        await flush()

    client.outbox.flush = cancel_then_flush  # type: ignore[method-assign]
    answer = await agent.prompt(session.session_id, [text_block("hello")])
    assert answer.stop_reason == "cancelled"
    client.outbox.flush = flush  # type: ignore[method-assign]
    again = await agent.prompt(session.session_id, [text_block("hello again")])
    assert again.stop_reason == "end_turn"  # the next turn is not cancelled by the old one
