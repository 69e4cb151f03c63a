"""Every command of the corpus gets exactly its verdict; no deny can be talked out of."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from kesi_lsp.catalog import text
from kesi_lsp.core.approval import Choice, CommandRequest, EditRequest, Refused
from kesi_lsp.core.permissions import PermissionGate, classify
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from tests.core.permissions.conftest import Layout
from tests.core.permissions.corpus import CORPUS, Kind


def fill(command: str, layout: Layout) -> str:
    return command.replace("{home}", shlex.quote(str(layout.home))).replace(
        "{outside}", shlex.quote(str(layout.outside))
    )


def test_the_corpus_is_large_and_has_no_duplicates() -> None:
    commands = [command for command, _ in CORPUS]
    assert len(commands) >= 150
    assert len(set(commands)) == len(commands)
    assert {kind for _, kind in CORPUS} == {"allow", "ask", "deny"}


@pytest.mark.parametrize(("command", "expected"), CORPUS, ids=[repr(c)[:60] for c, _ in CORPUS])
def test_verdict(layout: Layout, command: str, expected: Kind) -> None:
    verdict = classify(fill(command, layout), layout.root, layout.home)
    assert verdict.kind == expected, verdict.reason
    assert verdict.reason


class YesToEverything:
    """The worst user: answers "allow for this session" to anything it is asked."""

    def __init__(self) -> None:
        self.asked: list[CommandRequest] = []

    async def approve_command(self, request: CommandRequest) -> Choice:
        self.asked.append(request)
        return Choice.ALLOW_SESSION

    async def approve_edit(self, request: EditRequest) -> Choice:
        return Choice.ALLOW_SESSION


DENIED = [command for command, kind in CORPUS if kind == "deny"]


@pytest.mark.parametrize("command", DENIED, ids=[repr(c)[:60] for c in DENIED])
async def test_a_deny_stays_a_deny_whatever_the_answer_and_the_grants(
    layout: Layout, command: str
) -> None:
    command = fill(command, layout)
    session = Session(layout.root, AgentSettings(locale="zh-TW"))
    session.grants.commands.add(command.strip())  # even a grant for this exact string
    approver = YesToEverything()
    gate = PermissionGate(session, approver, home=layout.home)
    refusal = await gate.authorize_command(command)
    assert isinstance(refusal, Refused)
    assert refusal.message.startswith("錯誤：這個操作被安全規則擋下來了（")
    assert "沒有執行" in refusal.message
    assert approver.asked == []  # the user is never asked


def test_seed_red_line_messages_are_word_for_word(layout: Layout) -> None:
    verdict = classify("rm -rf /", layout.root, layout.home, locale="zh-TW")
    refusal = text("permissions.denied", "zh-TW", reason=verdict.reason)
    seed = "錯誤：這個操作被安全規則擋下來了（這個指令會刪掉根目錄或家目錄），沒有執行。"
    assert refusal == seed  # nothing added: "don't resend" is the system prompt's rule
    sudo = classify("sudo apt install x", layout.root, layout.home, locale="zh-TW")
    assert sudo.reason == "不允許提權指令 sudo"
    assert "提權" in text("permissions.denied", "zh-TW", reason=sudo.reason)


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("pytest -q", "pytest 不在自動放行的唯讀清單裡"),
        ("ls *.py", "指令含有 shell 特殊字元，實際會做什麼超出字面"),
        ("   ", "看不出這條指令要做什麼"),
        ("cat 'README.md", "指令解析不了"),
        ("git diff --output=report.txt", "Git 指令含有會寫檔或執行外部程式的參數"),
        ("cat .env", "指令碰到了不開放給工具讀取的路徑"),
        ("ls", "都是唯讀指令"),
        ("rm -rf ~", "這個指令會刪掉根目錄或家目錄"),
    ],
)
def test_seed_reasons_are_word_for_word(layout: Layout, command: str, reason: str) -> None:
    assert classify(command, layout.root, layout.home, locale="zh-TW").reason == reason


def test_the_real_home_path_counts_as_home(layout: Layout) -> None:
    """The seed compared against Path.home() as well as ~ and $HOME; here it is the host's HOME."""
    for spelling in (str(layout.home), f"{layout.home}/", f"{layout.home}/*", f"{layout.home}/."):
        verdict = classify(f"rm -rf {shlex.quote(spelling)}", layout.root, layout.home)
        assert verdict.kind == "deny", spelling


def test_a_workspace_that_is_home_makes_rm_dot_a_red_line(layout: Layout) -> None:
    assert classify("rm -rf .", layout.home, layout.home).kind == "deny"
    assert classify("rm -rf .", layout.root, layout.home).kind == "ask"


def test_symlink_out_of_the_workspace_asks_and_inside_allows(layout: Layout) -> None:
    assert classify("cat outside-link", layout.root, layout.home).kind == "ask"
    assert classify("cat inner-link", layout.root, layout.home).kind == "allow"


def test_a_workspace_inside_a_folder_named_like_the_ignore_list_still_works(tmp_path: Path) -> None:
    root = tmp_path / "venv" / "proj"
    root.mkdir(parents=True)
    (root / "README.md").write_text("x")
    (root / ".env").write_text("x")
    assert classify(f"cat {root}/README.md", root, tmp_path).kind == "allow"
    assert classify(f"cat {root}/.env", root, tmp_path).kind == "ask"
    assert classify(f"cat {root}/../proj/README.md", root, tmp_path).kind == "allow"
