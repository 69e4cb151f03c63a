"""The audit log after a run (issue 29): an asked command, a denied one, a rule-allowed one, a
reviewed edit and a later undo, each one JSON line in the folder's file in the state folder
(never the workspace), redacted, in order; `audit_lines` words them; reset leaves them; the
setting turns recording off; the file rotates by size. Through the loop with the real SDK and
the scripted API."""

from __future__ import annotations

import json
from pathlib import Path

from kesi_lsp.core import AuditLog, AuditTrail, audit_lines, redactor_for
from kesi_lsp.core.approval import Choice, CommandRequest, EditRequest
from kesi_lsp.core.changes.actions import select
from kesi_lsp.core.changes.run import RunChanges
from kesi_lsp.core.changes.undo import plan_undo, undone
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.settings.permission_rules import parse_rules
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import MakeAgent

GITHUB = "ghp_" + "aB3dE5fG7hJ9" * 3


class Answers:
    """Allows everything once, except a command that says "deploy"."""

    async def approve_command(self, request: CommandRequest) -> Choice:
        return Choice.DENY if "deploy" in request.command else Choice.ALLOW_ONCE

    async def approve_edit(self, request: EditRequest) -> Choice:
        return Choice.ALLOW_ONCE


async def test_a_run_leaves_one_record_per_command_and_edit_and_the_undo(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    steps = script(
        reply(tool_use("run_command", {"command": f"touch made.txt && echo {GITHUB}"})),
        reply(tool_use("run_command", {"command": "./deploy.sh"})),
        reply(tool_use("run_command", {"command": "python3 -c 'print(6 * 7)'"})),
        reply(
            tool_use("edit_file", {"file_path": "calc.py", "old_string": "-", "new_string": "+"})
        ),
        reply("Done."),
    )
    rules, bad = parse_rules({"allow": ["python3 -c *"]}, "user")
    assert bad == []
    agent = make_agent(steps, locale="en", permissions=rules)
    session, root = agent.ctx.session, agent.ctx.session.root
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n", encoding="utf-8")
    log = AuditLog(tmp_path / "state" / "kesi" / "audit")
    redact = redactor_for({}, "en")
    trail = AuditTrail(log, root, "run-1", redact)
    session.changes.observer = trail.transition
    agent.ctx.gate = PermissionGate(session, Answers(), home=tmp_path / "home")
    agent.ctx.changes = RunChanges(session.changes, root, "run-1", "fix")
    agent.ctx.audit = trail
    assert (await agent.ask("fix")).status == "done"
    # Later the user undoes the edit.
    target = select(session.changes, run_id="run-1")
    plan = plan_undo(session.changes, target, {root / "calc.py": (root / "calc.py").read_text()})
    for item in plan.files:
        item.path.write_text(item.after or "", encoding="utf-8")
    undone(session.changes, plan, [item.path for item in plan.files])
    assert log.flush()

    raw = log.file_for(root).read_text(encoding="utf-8")
    assert GITHUB not in raw and "[redacted: GitHub token]" in raw
    assert not any(root in p.parents for p in log.files(root))
    records = [json.loads(line) for line in raw.splitlines()]
    kinds = [(r["kind"], r.get("decided_by"), r.get("answer")) for r in records]
    assert kinds == [
        ("command", "user", "once"),
        ("command", "user", "deny"),
        ("command", "rule", None),
        ("edit", "user", "once"),
        ("change", None, None),
    ]
    asked, denied, ruled, edit, undo = records
    assert asked["verdict"] == "ask" and asked["exit_code"] == 0 and asked["bytes_out"] > 0
    assert asked["sandbox"] == "none" and asked["duration_ms"] >= 0
    assert "exit_code" not in denied and denied["command"] == "./deploy.sh"
    assert ruled["verdict"] == "allow" and "python3 -c *" in ruled["reason"]
    assert ruled["exit_code"] == 0
    assert edit == edit | {"path": "calc.py", "hunks": 1, "review": "reviewed"}
    assert edit["outcome"] == "applied"
    assert undo == undo | {"action": "undone", "path": "calc.py", "of_run": "run-1"}

    lines, path = audit_lines(log, root, "en", enabled=True)
    assert path == str(log.file_for(root)) and lines[0].startswith("KeSi audit log of work")
    assert "you allowed it once; ran without a sandbox, exit 0" in lines[1]
    assert "`./deploy.sh`: asked" in lines[2] and "you denied it" in lines[2]
    assert "allowed by your rule" in lines[3]
    assert "edit_file calc.py (1 hunks): you allowed it once; applied" in lines[4]
    assert "calc.py 2-2: undone by you (a change of run run-1)" in lines[5]
    zh, _ = audit_lines(log, root, "zh-TW", enabled=False)
    assert zh[0].startswith("KeSi 的稽核紀錄已關閉") and "你拒絕了" in zh[3]
    # Resetting the conversation clears the history, never the audit log.
    session.history.clear()
    assert len(log.records(root)) == 5


def test_the_log_rotates_by_size_and_keeps_the_newest(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit", max_bytes=600, keep=2)
    trail = AuditTrail(log, tmp_path / "ws", "r", redactor_for({}, "en"))
    for n in range(40):
        trail.record("command", command=f"echo {n}", verdict="allow", decided_by="classifier")
    assert log.flush()
    files = log.files(tmp_path / "ws")
    assert [p.name[-8:] for p in files][-1].endswith(".jsonl") and len(files) == 3
    assert all(p.stat().st_size <= 600 for p in files)
    records = log.records(tmp_path / "ws")
    assert records[-1]["command"] == "echo 39"
    assert [r["command"] for r in records] == [f"echo {n}" for n in range(40 - len(records), 40)]


def test_an_unknown_record_still_reads_as_a_line(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit")
    root = tmp_path / "ws"
    trail = AuditTrail(log, root, "r", redactor_for({}, "en"))
    trail.record("future_kind", detail="x")
    trail.mcp_call("fs", "read", decided_by="user", answer="once", duration_ms=1200, bytes_out=9)
    trail.network_grant("pypi.org", allowed=True, decided_by="user", answer="session", port=443)
    assert log.flush()
    with log.file_for(root).open("a", encoding="utf-8") as file:
        file.write("{torn\n")  # a line cut short by a crash
    lines, _ = audit_lines(log, root, "en", enabled=True)
    assert '"detail": "x"' in lines[1]
    assert "MCP fs/read: asked (), you allowed it once; 9 bytes back in 1.2 s" in lines[2]
    assert "network pypi.org:443: allowed" in lines[3] and len(lines) == 4
