"""The permission rules' precedence: red line, deny, ask, allow (seed Day 14's order)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core.approval import Allowed, Choice, CommandRequest, EditRequest, Refused
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.permissions.rules import judge
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.settings.permission_rules import PermissionRules, parse_rules
from tests.core.permissions.conftest import Layout


def rules(**lists: list[str]) -> PermissionRules:
    parsed, problems = parse_rules(lists, "user")
    assert problems == []
    return parsed


USER = rules(
    allow=["python -m pytest*", "npm test", "npm run *", "Bash(make:*)", "rm *", "edit:docs/**"],
    ask=["git status", "cat README.md"],
    deny=["git push*", "curl *", "Edit(migrations/**)"],
)

PRECEDENCE = [
    # allow rules: the whole command, every part of it
    ("python -m pytest -q", "allow"),
    ("npm test", "allow"),
    ("npm run", "allow"),  # `npm run *` also covers the bare command
    ("npm run build", "allow"),
    ("make", "allow"),  # Claude Code's `Bash(make:*)`
    ("make -j4 all", "allow"),
    ("npm test && python -m pytest", "allow"),
    ("npm test && ls", "allow"),  # the rest is read-only
    ("npm testing", "ask"),  # `npm test` is exact
    ("npm test && touch x", "ask"),  # not every part is allowed
    ("npm test > ~/.bashrc", "ask"),  # a redirection the rule never saw
    ("npm test $(id)", "ask"),
    ("npm test; curl x | sh", "deny"),  # a deny rule anywhere in the text
    # deny rules beat allow rules, behind wrappers and inside strings too
    ("git push origin main", "deny"),
    ("timeout 9 git push", "deny"),
    ("env A=1 git push --force", "deny"),
    ("sh -c 'git push'", "deny"),
    ('bash -lc "curl https://x"', "deny"),
    ("echo $(curl x)", "deny"),
    # ask rules beat the read-only list
    ("git status", "ask"),
    ("cat README.md", "ask"),
    ("ls", "allow"),
    # the red line beats every rule, even `rm *`
    ("rm -rf /", "deny"),
    ("rm -rf ~", "deny"),
    ("rm build.log", "allow"),
    ("sudo npm test", "deny"),
]


@pytest.mark.parametrize(("command", "expected"), PRECEDENCE)
def test_precedence(layout: Layout, command: str, expected: str) -> None:
    verdict = judge(command, layout.root, layout.home, rules=USER)
    assert verdict.kind == expected, verdict.reason


def test_reasons_name_the_rule_and_its_source(layout: Layout) -> None:
    verdict = judge("git push", layout.root, layout.home, rules=USER, locale="zh-TW")
    assert verdict.reason == "你的權限規則「git push*」（使用者設定）不允許"
    allowed = judge("npm test", layout.root, layout.home, rules=USER)
    assert allowed.reason == 'allowed by your permission rule "npm test" (user settings)'


@pytest.mark.parametrize(
    ("value", "bad"),
    [
        ({"allow": ["ok", ""]}, ""),
        ({"allow": ["ok", "echo 'x"]}, "echo 'x"),
        ({"deny": ["ok", "a\nb"]}, "a\nb"),
        ({"allow": ["ok", 3]}, "3"),
        ({"allow": ["ok", "edit:../x"]}, "edit:../x"),
        ({"allow": ["ok", "edit:/etc/*"]}, "edit:/etc/*"),
        ({"allow": ["ok"], "permit": ["x"]}, "permit"),
    ],
)
def test_a_malformed_rule_is_reported_and_the_rest_kept(value: object, bad: str) -> None:
    parsed, problems = parse_rules(value, "init")
    assert [p for p, _ in problems] == [bad]
    assert [r.pattern for r in parsed.rules] == ["ok"]


def test_not_an_object_is_reported() -> None:
    parsed, problems = parse_rules(["npm test"], "user")
    assert parsed.rules == () and len(problems) == 1


class Asker:
    def __init__(self) -> None:
        self.asked: list[str] = []

    async def approve_command(self, request: CommandRequest) -> Choice:
        self.asked.append(request.command)
        return Choice.ALLOW_ONCE

    async def approve_edit(self, request: EditRequest) -> Choice:
        return Choice.ALLOW_ONCE


def gate_for(layout: Layout, permissions: PermissionRules, **settings: object) -> PermissionGate:
    session = Session(layout.root, AgentSettings(permissions=permissions, **settings))  # type: ignore[arg-type]
    return PermissionGate(session, Asker(), home=layout.home)


async def test_the_gate_applies_command_rules(layout: Layout) -> None:
    gate = gate_for(layout, USER)
    assert isinstance(await gate.authorize_command("npm test"), Allowed)
    refusal = await gate.authorize_command("git push")
    assert isinstance(refusal, Refused) and "git push*" in refusal.message
    assert isinstance(await gate.authorize_command("git status"), Allowed)
    assert gate._approver.asked == ["git status"]  # type: ignore[attr-defined]


def test_the_gate_applies_edit_rules(layout: Layout) -> None:
    (layout.root / "docs").mkdir()
    (layout.root / "migrations").mkdir()
    gate = gate_for(layout, USER)
    assert gate.edit_refusal(layout.root / "migrations" / "0001.py") is not None
    assert gate.edit_refusal(layout.root / "docs" / "a.md") is None
    assert not gate.needs_review(layout.root / "docs" / "a.md")  # allowed: no review
    assert gate.needs_review(layout.root / "src" / "a.py")  # no rule: the seed's review
    asks = gate_for(layout, rules(ask=["edit:*.toml"]), approvals="acceptEdits")
    assert asks.needs_review(layout.root / "pyproject.toml")  # asked even under acceptEdits
    assert asks.needs_review(layout.root / "sub" / "x.toml")  # no `/`: any depth
    assert not asks.needs_review(layout.root / "src" / "a.py")


def test_edit_globs(tmp_path: Path) -> None:
    parsed = rules(deny=["edit:src/*.py", "edit:**/secrets/**", "edit:Makefile"])
    (deny_py, deny_secrets, deny_make) = parsed.rules
    assert deny_py.matches("src/a.py") and not deny_py.matches("src/sub/a.py")
    assert deny_secrets.matches("a/secrets/b/c.txt") and deny_secrets.matches("secrets/x")
    assert deny_make.matches("Makefile") and deny_make.matches("sub/Makefile")
