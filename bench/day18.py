"""The seed's Day 18 scenario: eight questions about the Day 13 project, fourteen requests.

The questions are the seed's (`examples/day18/demo.py`, `QUESTIONS`). The model's replies are
scripted to call the tools the seed's run called, as far as its bill shows them: round 1 made
3 requests (list_files, then README.md, pricing.py and rules.py read together, then the
answer), rounds 2, 3, 5 and 6 made 2 (one tool round, then the answer), rounds 4, 7 and 8
answered at once: 3+2+2+1+2+2+1+1 = 14 requests. Round 1's calls are printed in the seed; the
others are the natural call for each question (read rules.py, read both test files, read
utils.py, run the tests).
"""

from __future__ import annotations

from kesi_lsp.scripted_api import Step, TextBlock, ToolUseBlock

QUESTIONS = (
    "這個專案在做什麼？",
    "rules.py 裡的折扣規則怎麼算的？",
    "測試有幾條？",
    "pricing.py 跟 rules.py 的關係是什麼？",
    "utils.py 有什麼用？",
    "現在有測試沒過嗎？",
    "如果要加一個滿三千折兩百的規則，要改哪裡？",
    "整理一下你到目前為止看到的東西。",
)

TEST_COMMAND = "python3 -m pytest -q -p no:cacheprovider"


def _say(text: str, *tools: ToolUseBlock) -> Step:
    return Step(content=(TextBlock(text), *tools))


def _read(path: str) -> ToolUseBlock:
    return ToolUseBlock("read_file", {"file_path": path})


def replies() -> list[Step]:
    """The fourteen scripted replies, in request order."""
    return [
        # 1. 這個專案在做什麼？
        _say("我先看一下這個專案的結構。", ToolUseBlock("list_files", {})),
        _say(
            "讓我看看 README 和主要的 Python 檔案。",
            _read("README.md"),
            _read("pricing.py"),
            _read("rules.py"),
        ),
        _say(
            "## 專案概況\n\n這是一個「訂單試算」的小專案：\n\n"
            "- `pricing.py` 是對外的入口：`subtotal()` 把每一項的單價乘數量加總，"
            "`checkout()` 算出商品總額後扣掉折扣，再加上運費。\n"
            "- `rules.py` 放規則：`DISCOUNT_TABLE` 是滿額折扣表（滿 2000 折 150、滿 1000 "
            "折 100），`LEVEL_BONUS` 是會員等級的額外折抵（gold 多折 50），"
            "`shipping_fee()` 在折扣後滿 800 免運、否則收 60。\n"
            "- `utils.py` 是跟訂單規則無關的雜項工具。\n"
            "- 測試用 `python3 -m pytest -q` 執行。\n\n"
            "整體流程是：商品總額 → 扣折扣（滿額折扣加會員折抵）→ 依折扣後金額決定運費。"
        ),
        # 2. rules.py 裡的折扣規則怎麼算的？
        _say("我再確認一下 rules.py 的內容。", _read("rules.py")),
        _say(
            "`tier_discount(amount, member_level)` 的算法：\n\n"
            "1. 依序檢查 `DISCOUNT_TABLE`（由高到低：2000 → 150、1000 → 100），"
            "第一個符合的門檻就是這張訂單的滿額折扣，找到就停。\n"
            "2. 再加上 `LEVEL_BONUS` 裡會員等級的額外折抵：normal 是 0、gold 是 50，"
            "沒列出來的等級不加。\n\n"
            "要注意的是比較用的是 `amount > threshold`，所以剛好 1000 元的訂單不會觸發"
            "「滿千折百」，這跟註解寫的「滿千」不一致，看起來是個邊界錯誤。"
        ),
        # 3. 測試有幾條？
        _say("我看一下兩個測試檔。", _read("test_pricing.py"), _read("test_utils.py")),
        _say(
            "一共 7 條測試：\n\n- `test_pricing.py` 有 5 條：`test_subtotal`、"
            "`test_small_order_pays_shipping`、`test_free_shipping_at_800`、"
            "`test_discount_at_exactly_1000`、`test_gold_member_bonus`。\n"
            "- `test_utils.py` 有 2 條：`test_format_money`、`test_parse_items`。"
        ),
        # 4. pricing.py 跟 rules.py 的關係是什麼？
        _say(
            "`pricing.py` 是入口，`rules.py` 是它依賴的規則庫：`pricing.py` 從 `rules.py` "
            "匯入 `tier_discount` 和 `shipping_fee`。`checkout()` 先用 `subtotal()` 算出商品"
            "總額，交給 `tier_discount()` 算折扣，扣掉之後再用 `shipping_fee()` 算運費。"
            "規則（門檻、折扣金額、運費）都集中在 `rules.py`，改規則不用動 `pricing.py`。"
        ),
        # 5. utils.py 有什麼用？
        _say("我讀一下 utils.py。", _read("utils.py")),
        _say(
            "`utils.py` 有兩個跟訂單規則無關的小工具：\n\n"
            "- `format_money(amount)`：把金額排成 `NT$ 1,200` 的樣子。\n"
            '- `parse_items(text)`：把 `"100x2,50x1"` 解析成 `[(100, 2), (50, 1)]`，'
            "沒寫數量就當 1。\n\n目前 `pricing.py` 跟 `rules.py` 都沒有用到它們，"
            "只有 `test_utils.py` 在測。"
        ),
        # 6. 現在有測試沒過嗎？
        _say("我跑一下測試。", ToolUseBlock("run_command", {"command": TEST_COMMAND})),
        _say(
            "有 1 條沒過：`test_discount_at_exactly_1000`。剛好 1000 元的訂單預期付 900，"
            "實際是 1000：`tier_discount()` 用 `amount > threshold`，1000 不大於 1000，"
            "所以沒有折扣。把 `rules.py` 裡的 `>` 改成 `>=` 就會過。其他 6 條都通過。"
        ),
        # 7. 如果要加一個滿三千折兩百的規則，要改哪裡？
        _say(
            "只要改 `rules.py` 的 `DISCOUNT_TABLE`，在最前面加一筆 `(3000, 200)`：表格是由高到"
            "低檢查、第一個符合的就用，所以新門檻要放在 2000 前面。`pricing.py` 不用改。"
            "建議順便在 `test_pricing.py` 加一條剛好 3000 元的測試，也把 `>` 改成 `>=`，"
            "不然剛好 3000 元一樣不會觸發。"
        ),
        # 8. 整理一下你到目前為止看到的東西。
        _say(
            "## 整理\n\n- 專案：訂單試算，`pricing.py` 是入口，`rules.py` 放折扣與運費規則，"
            "`utils.py` 是無關的雜項工具。\n- 折扣：滿 2000 折 150、滿 1000 折 100，gold 會員"
            "再折 50；折扣後滿 800 免運，否則運費 60。\n- 測試：7 條，其中 "
            "`test_discount_at_exactly_1000` 失敗，原因是 `tier_discount()` 用了 `>` 而不是"
            " `>=`，剛好 1000 元拿不到折扣。\n- 要加滿三千折兩百：在 `DISCOUNT_TABLE` 最前面加"
            " `(3000, 200)`，並補一條邊界測試。\n\n還沒有動任何檔案。"
        ),
    ]


ROUND_REQUESTS = (3, 2, 2, 1, 2, 2, 1, 1)  # the seed's table, column 請求
