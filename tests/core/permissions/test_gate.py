"""The gate in use: the seed's Day 14 checks 7-13 and 16-21, plus a broken approver."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from kesi_lsp.core.approval import (
    Allowed,
    Choice,
    CommandRequest,
    DenyAll,
    EditRequest,
    Refused,
)
from kesi_lsp.core.permissions import (
    PermissionGate,
    describe_grants,
    grants_lines,
    home_from,
    revoke,
    revoked_line,
)
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from tests.core.permissions.conftest import Layout

ANSWERS = {"y": Choice.ALLOW_ONCE, "a": Choice.ALLOW_SESSION, "n": Choice.DENY}


class Scripted:
    """Answers from a queue; an empty queue means no (being asked means being refused).

    The seed's docstring warned that a fake returning the raw string "n" is truthy and passes
    falsely; here the answers are `Choice` values and the queue records every question.
    """

    def __init__(self, *answers: str) -> None:
        self.answers = deque(ANSWERS[a] for a in answers)
        self.asked: list[CommandRequest] = []

    async def approve_command(self, request: CommandRequest) -> Choice:
        self.asked.append(request)
        return self.answers.popleft() if self.answers else Choice.DENY

    async def approve_edit(self, request: EditRequest) -> Choice:
        return self.answers.popleft() if self.answers else Choice.DENY


def gate_for(layout: Layout, approver: object, locale: str = "zh-TW") -> PermissionGate:
    session = Session(layout.root, AgentSettings(locale=locale))  # type: ignore[arg-type]
    return PermissionGate(session, approver, home=layout.home)  # type: ignore[arg-type]


async def test_read_only_commands_run_without_asking(layout: Layout) -> None:
    approver = Scripted()
    gate = gate_for(layout, approver)
    assert isinstance(await gate.authorize_command("git log --oneline"), Allowed)
    assert isinstance(await gate.authorize_command("ls; pwd"), Allowed)
    assert approver.asked == []


async def test_allow_for_session_covers_the_exact_string_only(layout: Layout) -> None:
    approver = Scripted("a")
    gate = gate_for(layout, approver)
    assert await gate.authorize_command("pytest -v") == Allowed(Choice.ALLOW_SESSION)
    stripped = await gate.authorize_command("  pytest -v  ")  # stripped: the same command
    assert stripped == Allowed(Choice.ALLOW_SESSION)
    assert len(approver.asked) == 1
    refusal = await gate.authorize_command("pytest -q tests/")
    assert refusal == Refused("錯誤：使用者拒絕執行這個指令。")
    assert isinstance(await gate.authorize_command("pytest && rm -rf build"), Refused)
    assert [r.command for r in approver.asked] == [
        "pytest -v",
        "pytest -q tests/",
        "pytest && rm -rf build",
    ]


async def test_the_question_carries_the_reason(layout: Layout) -> None:
    approver = Scripted("n")
    gate = gate_for(layout, approver)
    await gate.authorize_command("pytest")
    assert approver.asked == [CommandRequest("pytest", "pytest 不在自動放行的唯讀清單裡")]


async def test_reordered_compound_command_asks_again(layout: Layout) -> None:
    approver = Scripted("a")
    gate = gate_for(layout, approver)
    assert isinstance(await gate.authorize_command("cd build && rm -rf ."), Allowed)
    assert isinstance(await gate.authorize_command("rm -rf . && cd build"), Refused)


async def test_a_grant_never_widens_to_the_command_family(layout: Layout) -> None:
    approver = Scripted("a")
    gate = gate_for(layout, approver)
    assert isinstance(await gate.authorize_command("python -m pytest -v"), Allowed)
    assert isinstance(await gate.authorize_command("python -m pytest -v"), Allowed)
    for other in ("python -m pytest -q", "python cleanup.py", "python -m http.server"):
        assert isinstance(await gate.authorize_command(other), Refused), other
    assert gate.session.grants.commands == {"python -m pytest -v"}

    approver.answers.append(Choice.ALLOW_SESSION)
    assert isinstance(await gate.authorize_command("git push origin main"), Allowed)
    assert isinstance(await gate.authorize_command("git clean -fdx"), Refused)
    revoke(gate.session)
    approver.answers.append(Choice.ALLOW_SESSION)
    assert isinstance(await gate.authorize_command("rm -rf build"), Allowed)
    assert isinstance(await gate.authorize_command("rm -rf important"), Refused)


async def test_allow_once_is_not_remembered(layout: Layout) -> None:
    approver = Scripted("y")
    gate = gate_for(layout, approver)
    assert isinstance(await gate.authorize_command("pytest"), Allowed)
    assert isinstance(await gate.authorize_command("pytest"), Refused)
    assert gate.session.grants.commands == set()


async def test_nobody_to_ask_fails_closed(layout: Layout) -> None:
    gate = gate_for(layout, DenyAll())
    refusal = await gate.authorize_command("pytest -q")
    assert refusal == Refused("錯誤：使用者拒絕執行這個指令。")


class Broken:
    async def approve_command(self, request: CommandRequest) -> Choice:
        raise RuntimeError("the editor went away")

    async def approve_edit(self, request: EditRequest) -> Choice:
        raise RuntimeError("the editor went away")


class Sloppy:
    async def approve_command(self, request: CommandRequest) -> object:
        return "n"  # truthy, and not a Choice: must count as no


async def test_an_approver_that_breaks_or_answers_nonsense_is_a_no(layout: Layout) -> None:
    for approver in (Broken(), Sloppy()):
        gate = gate_for(layout, approver, locale="en")
        refusal = await gate.authorize_command("pytest")
        assert isinstance(refusal, Refused)
        assert refusal.message.startswith("Error: the user refused")
        assert gate.session.grants.commands == set()


async def test_refusals_in_english_mirror_the_seeds_exactly(layout: Layout) -> None:
    """One sentence each, as the seed's (Day 14/16); "don't resend" is the system prompt's."""
    gate = gate_for(layout, DenyAll(), locale="en")
    refused = await gate.authorize_command("pytest")
    assert refused == Refused("Error: the user refused to run this command.")
    denied = await gate.authorize_command("rm -rf /")
    assert denied == Refused(
        "Error: this operation was blocked by the safety rules (this command would delete "
        "the root or home directory); it was not run."
    )


def test_file_grants_are_per_resolved_path(layout: Layout) -> None:
    gate = gate_for(layout, DenyAll())
    rules = layout.root / "src" / "a.py"
    assert gate.needs_review(rules)
    gate.remember_file(layout.root / "src" / ".." / "src" / "a.py")
    assert not gate.needs_review(rules)  # edit_file and write_file share the grant
    assert gate.needs_review(layout.root / "README.md")  # another file asks again


def test_permissions_view_and_revoke(layout: Layout) -> None:
    session = Session(layout.root, AgentSettings(locale="zh-TW"))
    assert grants_lines(describe_grants(session), "zh-TW") == [
        "已放行的指令：（無）",
        "已放行的檔案：（無）",
    ]
    session.grants.commands.update({"pytest -q", "npm test"})
    session.grants.files.update({layout.root / "src" / "a.py", layout.root / "README.md"})
    view = describe_grants(session)
    assert view.commands == ["npm test", "pytest -q"]
    assert view.files == ["README.md", "src/a.py"]
    assert grants_lines(view, "zh-TW") == [
        "已放行的指令：npm test、pytest -q",
        "已放行的檔案：README.md、src/a.py",
    ]
    assert grants_lines(view, "en")[0] == "Allowed commands: npm test, pytest -q"
    session.reset()  # /reset keeps the grants
    assert describe_grants(session).commands == ["npm test", "pytest -q"]
    revoke(session)
    assert describe_grants(session) == type(view)(commands=[], files=[])
    assert revoked_line("zh-TW") == "（這個 session 的授權已全部收回）"


async def test_refused_call_does_not_stop_the_batch(layout: Layout) -> None:
    """Seed check 19/20: deny, refuse, read; each gets its own answer, in order."""
    approver = Scripted("n")
    gate = gate_for(layout, approver)
    results = [await gate.authorize_command(c) for c in ("rm -rf /", "pytest", "cat README.md")]
    assert isinstance(results[0], Refused) and "安全規則" in results[0].message
    assert results[1] == Refused("錯誤：使用者拒絕執行這個指令。")
    assert results[2] == Allowed()
    assert [r.command for r in approver.asked] == ["pytest"]


def test_home_comes_from_the_hosts_environment(tmp_path: Path) -> None:
    assert home_from({"HOME": str(tmp_path)}) == tmp_path.resolve()
    assert home_from({}).is_absolute()


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_deny_reason_is_in_the_session_locale(layout: Layout, locale: str) -> None:
    gate = gate_for(layout, DenyAll(), locale=locale)
    refusal = await gate.authorize_command("sudo ls")
    assert isinstance(refusal, Refused)
    assert ("不允許提權指令 sudo" in refusal.message) == (locale == "zh-TW")
