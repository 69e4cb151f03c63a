"""One zh-TW run in a real Neovim, end to end: the seed's own words on every screen.

The user sets `server = { locale = "zh-TW" }` and runs `:KeSiFix` on the failing line. Every
line the plugin shows then comes from the server, in the seed's wording: the start-up lines
(Day 15), the permission question and its buttons (Day 14: 放行嗎？ 不要 / 這次 / 這個 session
都好, Deny first), the footer with Day 18's bill, and the answers of `:KeSiPermissions`,
`:KeSiCost`, `:KeSiRevoke` and `:KeSiReset` (Days 04/10, 14, 18). After the reset, the next
question starts a fresh conversation.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import disk, start_kesi
from tests.nvim.project import CALC_FIXED, FAULTY_LINE, failing_project

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

PYTEST = "python -m pytest -q"
DIAGNOSTIC = "test_add: assert -1 == 5"
BILL = re.compile(
    r"（本輪 (\d+) 次請求，input [\d,]+、output [\d,]+(?:、快取讀 [\d,]+、快取寫 [\d,]+)?，"
    r"\$(\d+\.\d{4})；累計 \$(\d+\.\d{4})）"
)


def zh_script() -> object:
    return script(
        reply(
            "我先讀 calc.py。",
            tool_use("read_file", {"file_path": "calc.py"}),
            # The task is in the locale too: no English "line 3: error" under zh-TW.
            expect={
                "last_user_text_contains": f"- 第 {FAULTY_LINE} 行：錯誤 [pytest] {DIAGNOSTIC}"
            },
        ),
        reply(
            "減號應該是加號。",
            tool_use(
                "edit_file",
                {
                    "file_path": "calc.py",
                    "old_string": "return a - b",
                    "new_string": "return a + b",
                },
            ),
        ),
        reply("跑一下測試。", tool_use("run_command", {"command": PYTEST})),
        reply("修好了，測試通過。", expect={"last_tool_result_contains": "1 passed"}),
        reply("重新開始了。", expect={"message_count": 1}),  # after :KeSiReset
    )


def test_a_zh_tw_run_speaks_the_seeds_words_from_start_to_reset(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(zh_script())
    kesi = start_kesi(open_editor, project, api.base_url, setup={"server": {"locale": "zh-TW"}})
    ed = kesi.ed
    ed.lua(
        "vim.diagnostic.set(vim.api.nvim_create_namespace('pytest'), 0, "
        "{ { lnum = ... - 1, col = 4, end_col = 16, message = select(2, ...), "
        "severity = vim.diagnostic.severity.ERROR, source = 'pytest' } })",
        FAULTY_LINE,
        DIAGNOSTIC,
    )
    ed.keys(f"{FAULTY_LINE}G:KeSiFix<CR>")
    kesi.wait_review()
    ed.keys("ga")

    # Day 14: the question and its answers, the safe one first; "3" is 這個 session 都好.
    prompt = kesi.wait_select()
    assert prompt["prompt"].startswith(f"[需要授權] 執行指令：{PYTEST}\n理由：")
    assert "\n放行嗎？" in prompt["prompt"]  # Neovim's vim.ui.select adds ": "
    assert prompt["items"] == ["不要", "這次", "這個 session 都好"]
    ed.keys("3<CR>")
    assert kesi.wait_finished()["status"] == "done"
    assert disk(project, "calc.py") == CALC_FIXED

    # Day 15's start-up lines, as the seed prints them, then Day 18's bill in the footer.
    out = ed.output()
    assert out[1] == f"  工作目錄：{project.resolve()}"
    assert out[2].startswith("  指令沙箱：")
    footer = out[-1]
    assert footer.startswith("── 完成 · 已驗證 · （本輪 4 次請求，"), (
        footer
    )  # pytest passed after the edit
    bill = BILL.search(footer)
    assert bill, footer
    cost = bill[2]
    assert bill[3] == cost  # the first run: its cost is the session's

    # The session commands answer in the server's (the seed's) words.
    ed.keys(":KeSiPermissions<CR>")
    said = kesi.notified(f"已放行的指令：{PYTEST}")
    assert "已放行的檔案：（無）" in said
    ed.keys(":KeSiCost<CR>")
    said = kesi.notified(f"合計 ${cost}")
    assert "這個 session 共 4 次請求" in said
    ed.keys(":KeSiRevoke<CR>")
    kesi.notified("（這個 session 的授權已全部收回）")
    ed.keys(":KeSiReset<CR>")
    kesi.notified("（日記與檔案版本紀錄已清空，我們重新開始）")

    # A fresh conversation (the scripted API checks: one message), the start-up lines not
    # repeated, and the session's total still counting (the seed's /reset keeps the bill).
    ed.keys(":KeSiAsk 再來一次<CR>")
    assert kesi.wait_finished(2)["status"] == "done"
    out = ed.output()
    assert sum(line.startswith("  工作目錄：") for line in out) == 1
    second = BILL.search(out[-1])
    assert second and second[1] == "1", out[-1]
    # Each figure is rounded to four decimals on its own: the sum may differ by one in the last.
    assert float(second[3]) == pytest.approx(float(cost) + float(second[2]), abs=1.5e-4)
