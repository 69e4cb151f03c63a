"""Messages of the `settings` domain: key -> (English, Traditional Chinese).

What every front end says about a setting it cannot use (`kesi_lsp.core.settings.parse`): the value
expected, the value found, the default used instead.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "settings.invalid": (
        "KeSi setting {key}: expected {expected}, got {value}; using {default}.",
        "KeSi 設定 {key}：應該是{expected}，收到的是 {value}；先用預設值 {default}。",
    ),
    "settings.permission_rule_invalid": (  # new: the permission rules
        "KeSi setting {key}: the rule {rule} is ignored ({why}); the other rules stay in force.",
        "KeSi 設定 {key}：規則 {rule} 先不採用（{why}），其他規則照常生效。",
    ),
    "settings.rule_problem.object": (
        'expected an object such as {"allow": ["npm test"], "deny": ["git push*"]}',
        '應該是像 {"allow": ["npm test"], "deny": ["git push*"]} 這樣的物件',
    ),
    "settings.rule_problem.kind": (
        "the lists are named allow, ask and deny",
        "清單的名稱只有 allow、ask、deny",
    ),
    "settings.rule_problem.empty": ("a rule is a non-empty text", "規則要是一段不是空白的文字"),
    "settings.rule_problem.control": (
        "it contains a control character such as a newline",
        "裡面有換行之類的控制字元",
    ),
    "settings.rule_problem.quotes": ("a quote is not closed", "有引號沒有關上"),
    "settings.rule_problem.outside": (
        "an edit glob is relative to the workspace, without ~, / or ..",
        "編輯的 glob 要相對於工作目錄，不能用 ~、/ 或 ..",
    ),
    "settings.expect.model": (
        "a model name such as claude-haiku-4-5",
        "模型名稱，例如 claude-haiku-4-5",
    ),
    "settings.expect.max_tokens": ("a whole number from 1 to 128000", "1 到 128000 之間的整數"),
    "settings.expect.max_turns": ("a whole number from 1 to 1000", "1 到 1000 之間的整數"),
    "settings.expect.max_failures": ("a whole number from 1 to 100", "1 到 100 之間的整數"),
    "settings.expect.task_timeout": (
        "a number of seconds above 0 and at most 86400",
        "大於 0、最多 86400 的秒數",
    ),
    "settings.expect.timeout": (
        "a number of seconds above 0 and at most 3600",
        "大於 0、最多 3600 的秒數",
    ),
    "settings.expect.memory": (
        "a whole number of MiB from 64 to 1048576, or 0 for no limit",
        "64 到 1048576 之間的 MiB 整數，或 0 表示不設上限",
    ),
    "settings.expect.sandbox": (
        'one of "auto", "bubblewrap", "seatbelt", "off"',
        "「auto」、「bubblewrap」、「seatbelt」、「off」其中之一",
    ),
    "settings.expect.approvals": (
        '"ask" (show each file edit first) or "acceptEdits" (apply file edits without asking)',
        "「ask」（每次改檔先給你看）或「acceptEdits」（改檔不先問，直接套用）",
    ),
    "settings.expect.bool": ("true or false", "true 或 false"),
    "settings.expect.message_size": (
        "a number of megabytes from 1 to 4096",
        "1 到 4096 之間的 MB 數",
    ),
    "settings.expect.budget": (
        "a number of tokens from 1000 to 2000000",
        "1000 到 2000000 之間的 token 數",
    ),
    "settings.expect.locale": ('"en" or "zh-TW"', "「en」或「zh-TW」"),
    "settings.expect.api_key": ("a non-empty string", "非空字串"),
    "settings.expect.base_url": ("an http:// or https:// URL", "http:// 或 https:// 開頭的網址"),
    "settings.expect.names": (
        'a list of environment variable names, such as ["GH_TOKEN"]',
        '環境變數名稱的清單，例如 ["GH_TOKEN"]',
    ),
}
