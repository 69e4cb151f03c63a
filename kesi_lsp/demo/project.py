"""The demo's sample project: the seed's Day 13 exercise, file for file.

An order-pricing module whose `tier_discount` uses `>` where it needs `>=`. The failing test
(`test_pricing.py::test_discount_at_exactly_1000`) sits two hops away from the bug
(test -> pricing.checkout -> rules.tier_discount), its assertion (`1000 == 900`) does not give
the cause away, and `utils.py` / `test_utils.py` are there to distract. The correct fix is one
line in `rules.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

FILES: Final[dict[str, str]] = {
    "README.md": """\
# 訂單試算

- `pricing.py`：對外的試算入口
- `rules.py`：折扣與運費規則
- `utils.py`：跟這次無關的雜項工具

測試：`python3 -m pytest -q`
""",
    "pricing.py": '''\
"""訂單試算的入口。"""

from rules import shipping_fee, tier_discount


def subtotal(items):
    """items 是 [(單價, 數量), ...]，回傳商品總額。"""
    return sum(price * qty for price, qty in items)


def checkout(items, member_level="normal"):
    """回傳這張訂單要付多少錢。"""
    goods = subtotal(items)
    discount = tier_discount(goods, member_level)
    payable = goods - discount
    return payable + shipping_fee(payable)
''',
    "rules.py": '''\
"""折扣與運費規則。

滿千折百，兩千以上再多折 50。運費 60 元，滿 800 免運。
"""

FREE_SHIPPING_THRESHOLD = 800
SHIPPING_FEE = 60

# (門檻, 折扣)，由高到低檢查，第一個符合的門檻就是這張訂單的折扣。
DISCOUNT_TABLE = [
    (2000, 150),
    (1000, 100),
]

# 會員等級的額外折抵。
# 沒列出來的等級不加。
LEVEL_BONUS = {"normal": 0, "gold": 50}


def tier_discount(amount, member_level="normal"):
    """依消費金額給折扣，再加上會員等級的額外折抵。"""
    discount = 0
    for threshold, value in DISCOUNT_TABLE:
        if amount > threshold:
            discount = value
            break
    return discount + LEVEL_BONUS.get(member_level, 0)


def shipping_fee(amount):
    """折扣後的金額滿 800 免運，否則收 60。"""
    if amount >= FREE_SHIPPING_THRESHOLD:
        return 0
    return SHIPPING_FEE
''',
    "utils.py": '''\
"""跟訂單規則無關的雜項工具。"""


def format_money(amount):
    """把金額排成 NT$ 1,200 的樣子。"""
    return f"NT$ {amount:,}"


def parse_items(text):
    """把 "100x2,50x1" 解析成 [(100, 2), (50, 1)]，沒寫數量就當 1。"""
    items = []
    for part in text.split(","):
        price, _, qty = part.strip().partition("x")
        items.append((int(price), int(qty) if qty else 1))
    return items
''',
    "test_pricing.py": """\
from pricing import checkout, subtotal


def test_subtotal():
    assert subtotal([(100, 2), (50, 3)]) == 350


def test_small_order_pays_shipping():
    assert checkout([(100, 1)]) == 160


def test_free_shipping_at_800():
    assert checkout([(800, 1)]) == 800


def test_discount_at_exactly_1000():
    # 滿千折百：1000 - 100 = 900，900 大於 800 所以免運
    assert checkout([(1000, 1)]) == 900


def test_gold_member_bonus():
    # 1200 - (100 + 50) = 1050
    assert checkout([(1200, 1)], member_level="gold") == 1050
""",
    "test_utils.py": """\
from utils import format_money, parse_items


def test_format_money():
    assert format_money(1200) == "NT$ 1,200"


def test_parse_items():
    assert parse_items("100x2,50x1") == [(100, 2), (50, 1)]
""",
}

BUGGY_LINE: Final = "        if amount > threshold:\n"
FIXED_LINE: Final = "        if amount >= threshold:\n"
FAILING_TEST: Final = ("test_pricing.py", 18)  # the assert of test_discount_at_exactly_1000


def build(target: Path) -> Path:
    """Write the sample project into `target` (which must not exist yet) and return it."""
    target.mkdir(parents=True)
    for name, content in FILES.items():
        (target / name).write_text(content, encoding="utf-8")
    return target
