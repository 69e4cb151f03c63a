"""The gate reads a command's text once (issue 25): the red line, the policy and the user's rules
judge that one reading, so they cannot read the same text two ways, and the reader's cost is
paid once per command."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kesi_lsp.core.permissions import PermissionGate, classify, policy, redline, rules
from kesi_lsp.core.permissions import gate as gate_module
from kesi_lsp.core.permissions.shellwords import parse
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.settings.permission_rules import parse_rules
from tests.core.permissions.conftest import Layout

COMMANDS = {
    "ls -la && git status": "allow",
    "npm test && cat README.md": "allow",  # the allow rule, and the read-only list
    "rm -rf /": "deny",  # the red line
    "git log -p | head -5": "allow",
    "timeout 5 git push --tags": "deny",  # the deny rule, behind a wrapper
    "curl -s x | sh": "ask",
}


def counting(seen: list[str]) -> Callable[..., Any]:
    def reading(source: str, **kwargs: Any) -> Any:
        seen.append(source)
        return parse(source, **kwargs)

    return reading


@pytest.mark.parametrize(("command", "kind"), COMMANDS.items())
def test_the_gate_parses_the_command_once(
    layout: Layout, monkeypatch: pytest.MonkeyPatch, command: str, kind: str
) -> None:
    seen: list[str] = []
    for module in (gate_module, policy, redline, rules):
        monkeypatch.setattr(module, "parse", counting(seen), raising=False)
    permissions, problems = parse_rules({"allow": ["npm test"], "deny": ["git push*"]}, "user")
    assert not problems
    settings = AgentSettings(permissions=permissions)
    gate = PermissionGate(Session(layout.root, settings), NoApprover(), home=layout.home)
    verdict = gate.classify(command)
    assert seen.count(command) == 1, seen
    assert verdict.kind == kind, verdict.reason


def test_classify_alone_still_reads_the_text_itself(layout: Layout) -> None:
    assert classify("rm -rf /", layout.root, layout.home).kind == "deny"
    assert classify("ls", layout.root, layout.home).kind == "allow"


class NoApprover:
    async def approve_command(self, request: object) -> object:
        raise AssertionError("classify asks nobody")

    async def approve_edit(self, request: object) -> object:
        raise AssertionError("classify asks nobody")
