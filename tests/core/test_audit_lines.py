"""The audit log's records as the lines `kesi.audit` and `kesi-lsp audit` show (issue 29): an
MCP call refused before the server was called, the proxy's refusals and the user's answers,
a command started as a background task and that task's end, in English and zh-TW."""

from __future__ import annotations

from typing import Any

import pytest

from kesi_lsp.core.audit import record_line

TIME = "2026-12-02T04:05:06.789+00:00"
CASES: list[tuple[dict[str, Any], str, str]] = [
    (
        {"kind": "mcp_call", "server": "fs", "tool": "rm", "verdict": "deny",
         "reason": "mcp:fs:rm", "decided_by": "rule"},
        "MCP fs/rm: denied by your rule (mcp:fs:rm)",
        "MCP fs/rm：被你的規則拒絕（mcp:fs:rm）",
    ),
    (
        {"kind": "mcp_call", "server": "fs", "tool": "read", "verdict": "ask",
         "reason": "an MCP tool call", "decided_by": "user", "answer": "deny"},
        "MCP fs/read: asked (an MCP tool call), you denied it",
        "MCP fs/read：詢問過（an MCP tool call），你拒絕了",
    ),
    (
        {"kind": "mcp_call", "server": "fs", "tool": "read", "decided_by": "grant",
         "answer": "session", "duration_ms": 40, "bytes_out": 12, "is_error": True},
        "MCP fs/read: allowed by your grant for this session; failed",
        "MCP fs/read：依你這個 session 的授權允許；失敗",
    ),
    (
        {"kind": "network", "host": "evil.test", "allowed": False, "decided_by": "denied"},
        "network evil.test: blocked, kesi.sandboxNetworkDeny names it",
        "網路 evil.test：擋下，kesi.sandboxNetworkDeny 有它",
    ),
    (
        {"kind": "network", "host": "pypi.org", "allowed": True, "decided_by": "user",
         "answer": "always"},
        "network pypi.org: allowed, asked, you allowed it always",
        "網路 pypi.org：允許，詢問過，你永遠允許",
    ),
    (
        {"kind": "network", "host": "no.test", "allowed": False, "decided_by": "session"},
        "network no.test: blocked, you had refused it earlier this session",
        "網路 no.test：擋下，你在這個 session 稍早已拒絕過",
    ),
    (
        {"kind": "command", "command": "npm run dev", "verdict": "ask", "reason": "runs npm",
         "decided_by": "user", "answer": "once", "sandbox": "bubblewrap", "task": "2"},
        "command `npm run dev`: asked (runs npm), you allowed it once; started bubblewrap as "
        "background task 2",
        "指令 `npm run dev`：詢問過（runs npm），你允許了這一次；在 bubblewrap 裡啟動為背景工作 2",
    ),
    (
        {"kind": "task", "task": "2", "command": "npm run dev", "state": "stopped",
         "exit_code": -15, "duration_ms": 61200, "bytes_out": 4096},
        "background task 2 `npm run dev`: stopped, after 61.2 s, 4096 bytes out",
        "背景工作 2 `npm run dev`：已停止，61.2 秒，輸出 4096 位元組",
    ),
    (
        {"kind": "task", "task": "3", "command": "make watch", "state": "timed_out",
         "exit_code": -15, "duration_ms": 3600000, "bytes_out": 0, "limit_s": 3600.0},
        "background task 3 `make watch`: stopped after running 3600 seconds (the taskTimeout "
        "limit), after 3600.0 s, 0 bytes out",
        "背景工作 3 `make watch`：執行 3600 秒後被停止（taskTimeout 上限），"
        "3600.0 秒，輸出 0 位元組",
    ),
    (
        {"kind": "task", "task": "4", "command": "pytest", "state": "exited", "exit_code": 1,
         "duration_ms": 900, "bytes_out": 10},
        "background task 4 `pytest`: exited with code 1, after 0.9 s, 10 bytes out",
        "背景工作 4 `pytest`：已結束，結束碼 1，0.9 秒，輸出 10 位元組",
    ),
    (
        {"kind": "task", "task": "5", "command": "yes", "state": "exited", "exit_code": -9,
         "duration_ms": 100, "bytes_out": 10},
        "background task 5 `yes`: ended by signal 9, after 0.1 s, 10 bytes out",
        "背景工作 5 `yes`：被訊號 9 結束，0.1 秒，輸出 10 位元組",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("record", "english", "chinese"), CASES)
def test_each_record_reads_as_one_line(record: dict[str, Any], english: str, chinese: str) -> None:
    full = {"time": TIME, "run": "r1", **record}
    assert record_line(full, "en") == f"2026-12-02 04:05:06 {english}"
    assert record_line(full, "zh-TW") == f"2026-12-02 04:05:06 {chinese}"
