"""Messages of the `demo` domain: key -> (English, Traditional Chinese as the seed words it).

Two kinds of sentence live here: what `kesi-lsp demo` prints (the doctor's lines are in
`doctor.py`), and the recorded model's replies (`demo.model.*`), which are the seed's Day 13
run 1 — in zh-TW the seed's own words where it quotes them
("✅ **完成！所有測試現在都通過了。**", the summary's headings, "應該能通過了" when the fix
could not be verified), in English a faithful rendering.
"""

from __future__ import annotations

from typing import Final

_SCREEN: Final[dict[str, tuple[str, str]]] = {
    "demo.title": (
        "KeSi LSP demo: this program plays the editor, kesi-lsp fixes a bug",
        "KeSi LSP 示範：這支程式扮演編輯器，讓 kesi-lsp 修一個 bug",
    ),
    "demo.why.no_key": ("No ANTHROPIC_API_KEY is set", "沒有設定 ANTHROPIC_API_KEY"),
    "demo.why.flag": ("--recorded was given", "指定了 --recorded"),
    "demo.mode.recorded": (
        "{why}: this is a RECORDED run (the KeSi blog's Day 13 fix), played by the bundled "
        "scripted Messages API server at {url} through the real anthropic SDK. No network, "
        "nothing is charged. Set ANTHROPIC_API_KEY to watch the real model instead.",
        "{why}：這是一段「錄好的」過程（KeSi 部落格第 13 天那次修 bug），由內建的 scripted "
        "Messages API 伺服器（{url}）透過真正的 anthropic SDK 重播。不連網，也不花錢。"
        "設定 ANTHROPIC_API_KEY 就會改用真正的模型。",
    ),
    "demo.mode.live": (
        "Using the Anthropic API with model {model}: real requests that cost real money "
        "(the blog's runs cost about US$0.04 each). The model may take a different route "
        "each time.",
        "使用 Anthropic API，模型 {model}：真的會送出請求、真的會花錢（部落格那幾次一次約 0.04 "
        "美元）。模型每次走的路線不見得一樣。",
    ),
    "demo.answers.yes": (
        '--yes: every permission prompt is answered "Allow once", every edit review "Accept".',
        "--yes：每個授權詢問都回答「這次」，每個修改檢查都回答「接受」。",
    ),
    "demo.answers.ask": (
        "You answer each permission prompt and edit review below (an empty answer refuses).",
        "下面每個授權詢問和修改檢查都由你回答（直接按 Enter 就是拒絕）。",
    ),
    "demo.answers.deny": (
        "No terminal to ask and no --yes: every permission prompt and edit review will be "
        "refused (the gate fails closed). Run with --yes to allow them.",
        "沒有終端機可以問，也沒有 --yes：每個授權詢問和修改檢查都會被拒絕（沒有人可以問，"
        "自動拒絕）。要放行請加 --yes。",
    ),
    "demo.project": ("Sample project: {path}", "示範專案：{path}"),
    "demo.venv": (
        "It has its own .venv with pytest, first on PATH ({bin}), as in an editor with the "
        "project's interpreter selected; KeSi's sandbox lets commands use a project's .venv.",
        "它有自己的 .venv（裝了 pytest），放在 PATH 最前面（{bin}），就像編輯器選好了專案的 "
        "Python；KeSi 的沙箱讓指令可以用專案自己的 .venv。",
    ),
    "demo.section.start": ("1. Starting state", "1. 起點的測試狀態"),
    "demo.section.editor": ("2. In the editor", "2. 在編輯器裡"),
    "demo.section.run": ("3. KeSi at work", "3. KeSi 的過程"),
    "demo.section.end": ("4. Ending state", "4. 終點的測試狀態"),
    "demo.section.diff": (
        "5. What changed on disk (every original file against the sample)",
        "5. 磁碟上的變化（每個原始檔案和題目比對）",
    ),
    "demo.section.bill": ("6. The bill", "6. 帳單"),
    "demo.section.result": ("Result", "結果"),
    "demo.tests.command": ("$ python -m pytest -q", "$ python -m pytest -q"),
    "demo.tests.result": ("exit code {code}: {summary}", "結束碼 {code}：{summary}"),
    "demo.tests.failure": (
        "FAILED {file}::{test} - {message}  (at {file}:{line})",
        "FAILED {file}::{test} - {message}（在 {file}:{line}）",
    ),
    "demo.editor.server": (
        "started kesi-lsp over stdio, as an editor does (its log: {log})",
        "像編輯器一樣用 stdio 啟動 kesi-lsp（它的 log：{log}）",
    ),
    "demo.editor.open": (
        "opened {path}; the test run marks line {line}: {message}",
        "打開 {path}；測試結果標在第 {line} 行：{message}",
    ),
    "demo.editor.actions": (
        "code actions offered on line {line}: {titles}",
        "第 {line} 行提供的 code action：{titles}",
    ),
    "demo.editor.execute": (
        'picked "{title}" → {command}, run {run}',
        "選了「{title}」→ {command}，run {run}",
    ),
    "demo.editor.message": ("[editor message] {message}", "[編輯器訊息] {message}"),
    "demo.tool.start": ("  [tool] {tool}({input})", "  [執行工具] {tool}({input})"),
    "demo.tool.done": ("    → {summary}", "    → {summary}"),
    "demo.tool.error": ("    ✗ {summary}", "    ✗ {summary}"),
    "demo.tool.edited": (
        "  [edited] {path}: applied to the editor's buffer and saved",
        "  [已修改] {path}：套用到編輯器的 buffer 並存檔",
    ),
    "demo.tool.notice": ("  [notice] {text}", "  [通知] {text}"),
    "demo.plan.title": ("  [plan] {done} of {total} done", "  [計畫] 完成 {done}/{total}"),
    "demo.plan.item": ("    {mark} {content}", "    {mark} {content}"),
    "demo.prompt.title": (
        "  ? KeSi asks for permission (window/showMessageRequest):",
        "  ? KeSi 請求授權（window/showMessageRequest）：",
    ),
    "demo.review.title": (
        "  ? KeSi wants to change {path}; review the diff (kesi/reviewEdit):",
        "  ? KeSi 想修改 {path}，請檢查 diff（kesi/reviewEdit）：",
    ),
    "demo.review.accept": ("Accept", "接受"),
    "demo.review.acceptSession": (
        "Accept all edits to this file for this session",
        "這個 session 都接受這個檔案的修改",
    ),
    "demo.review.reject": ("Reject", "拒絕"),
    "demo.answer.yes": ("    → {choice} (--yes)", "    → {choice}（--yes）"),
    "demo.answer.nobody": (
        "    → {choice} (nobody to ask; refused automatically)",
        "    → {choice}（沒有人可以問，自動拒絕）",
    ),
    "demo.answer.question": (
        "Your answer (1-{count}, empty to refuse): ",
        "你的回答（1-{count}，直接按 Enter 就是拒絕）：",
    ),
    "demo.answer.chosen": ("    → {choice}", "    → {choice}"),
    "demo.answer.empty": ("    → {choice} (no answer)", "    → {choice}（沒有回答）"),
    "demo.answer.again": (
        "    Please type a number from 1 to {count}.",
        "    請輸入 1 到 {count} 的數字。",
    ),
    "demo.run.finished": ("run finished: {status}", "run 結束：{status}"),
    "demo.run.timeout": (
        "KeSi did not finish within {seconds} s; cancelling the run as the editor's Cancel would.",
        "KeSi 在 {seconds} 秒內沒有做完，像編輯器的取消鍵一樣中斷這個 run。",
    ),
    "demo.run.interrupted": (
        "Ctrl-C: cancelling the run as the editor's Cancel would (Ctrl-C again to quit now).",
        "Ctrl-C：像編輯器的取消鍵一樣中斷這個 run（再按一次 Ctrl-C 立刻離開）。",
    ),
    "demo.diff.none": ("(no original file changed)", "（沒有任何原始檔案被改動）"),
    "demo.diff.new_files": ("new files: {files}", "新增的檔案：{files}"),
    "demo.verdict.expected": (
        "The change is the expected one-line fix: rules.py, `if amount > threshold:` → "
        "`if amount >= threshold:`. Judge by the diff, not only by pytest's last line.",
        "改動就是預期的那一行：rules.py 的 `if amount > threshold:` → "
        "`if amount >= threshold:`。驗收要看的是 diff，不是只看 pytest 最後一行。",
    ),
    "demo.verdict.unexpected": (
        "The change is NOT the expected one-line fix in rules.py: read the diff above before "
        "trusting green tests.",
        "改動「不是」預期的 rules.py 那一行：相信綠燈之前，先看上面的 diff。",
    ),
    "demo.bill.total": (
        "{requests} requests · input {input} tokens (plus cache read {read}, cache write "
        "{write}) · output {output} tokens · about US${cost} · {seconds} s",
        "模型往返 {requests} 次 · input {input} token（另有快取讀 {read}、快取寫 {write}）· "
        "output {output} token · 約 {cost} 美元 · {seconds} 秒",
    ),
    "demo.bill.recorded": (
        "(recorded run: input and cache tokens are what the scripted server counted from "
        "what KeSi really sent; rounds that follow the blog's run 1 report that run's output "
        "tokens and replay at its pace (see --pace); priced at {model} list prices; nothing "
        "was charged)",
        "（錄好的過程：input 和快取 token 是 scripted 伺服器依 KeSi 實際送出的內容算的；"
        "跟部落格第一次實跑相同的圈，output token 用那次的數字、照那次的速度重播（見 --pace）；"
        "用 {model} 的定價計算；沒有實際收費）",
    ),
    "demo.bill.live": (
        "(from the usage the API reported, at {model} list prices; the Anthropic Console has "
        "the real bill)",
        "（依 API 回報的 usage、用 {model} 的定價計算；實際帳單以 Anthropic Console 為準）",
    ),
    "demo.bill.col.round": ("round", "圈"),
    "demo.bill.summary": ("summary", "摘要"),
    "demo.bill.search": ("search", "搜尋"),
    "demo.bill.col.input": ("input", "input"),
    "demo.bill.col.cache_read": ("cache read", "快取讀"),
    "demo.bill.col.cache_write": ("cache write", "快取寫"),
    "demo.bill.col.output": ("output", "output"),
    "demo.bill.col.seconds": ("seconds", "秒"),
    "demo.bill.col.tools": ("tools", "工具"),
    "demo.result.verdict": (
        "KeSi's own verdict on its change (from what really ran, not from its words): "
        "{status}: {detail}",
        "KeSi 對這次修改的判定（依照實際跑過的東西，不是模型自己說的）：{status}：{detail}",
    ),
    "demo.result.no_verdict": (
        "KeSi's own verdict: nothing was changed, so there is nothing to verify.",
        "KeSi 的判定：沒有修改任何東西，所以沒有需要驗證的。",
    ),
    "demo.result.green": (
        "The sample's tests are green ({summary}): exit status 0.",
        "示範專案的測試全綠（{summary}）：結束碼 0。",
    ),
    "demo.result.red": (
        "The sample's tests are NOT green ({summary}): exit status 1.",
        "示範專案的測試「沒有」全綠（{summary}）：結束碼 1。",
    ),
    "demo.kept": (
        "The project stays at {path} (server log: {log}).",
        "專案留在 {path}（伺服器 log：{log}）。",
    ),
    "demo.kept_log": ("The server's log stays at {log}.", "伺服器的 log 留在 {log}。"),
    "demo.interrupted": ("Interrupted.", "已中斷。"),
    "demo.error.no_pytest": (
        "The demo runs the sample project's tests with pytest, which this Python ({python}) "
        "does not have. Install it (python -m pip install pytest), or run ./dev demo from the "
        "repository, which sets everything up.",
        "示範要用 pytest 跑示範專案的測試，但這個 Python（{python}）沒有安裝 pytest。"
        "請安裝（python -m pip install pytest），或在 repo 裡執行 ./dev demo，它會把環境準備好。",
    ),
    "demo.error.dir_exists": (
        "{path} already exists; --dir needs a folder that does not exist yet.",
        "{path} 已經存在；--dir 要指定一個還不存在的資料夾。",
    ),
    "demo.error.not_red": (
        "The sample project did not start with a failing test ({summary}); there is nothing "
        "to fix.",
        "示範專案一開始就沒有失敗的測試（{summary}），沒有東西可以修。",
    ),
    "demo.error.server": (
        "kesi-lsp stopped answering: {error}. Its log: {log}",
        "kesi-lsp 沒有回應：{error}。它的 log：{log}",
    ),
    "demo.error.no_action": (
        'kesi-lsp offered no "KeSi: fix this" code action at {path}:{line}.',
        "kesi-lsp 在 {path}:{line} 沒有提供「KeSi：修這裡」的 code action。",
    ),
}

_MODEL: Final[dict[str, tuple[str, str]]] = {
    "demo.model.look": (
        "I'll find the cause of this failure. Let me start by looking at what is in the project.",
        "我來找出這個測試失敗的原因。先看看專案裡有哪些檔案。",
    ),
    "demo.model.run_tests": (
        "Now let me run the tests to see exactly which one fails and how.",
        "接著跑一下測試，看看是哪一條失敗、怎麼失敗的。",
    ),
    "demo.model.read_red": (
        "One test fails: `test_discount_at_exactly_1000` expects `checkout([(1000, 1)])` to be "
        "900 but gets 1000, so the 100 discount is missing for an order of exactly 1000. Let me "
        "read the test and the code it goes through.",
        "有一條測試失敗：`test_discount_at_exactly_1000` 預期 `checkout([(1000, 1)])` 是 900，"
        "實際是 1000，也就是剛好 1000 元的訂單少折了 100 元。我來讀測試，還有它呼叫到的程式碼。",
    ),
    "demo.model.read_unverified": (
        "I can't run the tests without your permission, so I'll work from the failure your "
        "editor reported (`assert 1000 == 900` at test_pricing.py:18) and read the code it goes "
        "through.",
        "沒有你的授權我不能跑測試，所以我從編輯器回報的錯誤（test_pricing.py:18 的 "
        "`assert 1000 == 900`）下手，讀它呼叫到的程式碼。",
    ),
    "demo.model.edit": (
        "Found it. `checkout()` gets its discount from `tier_discount()` in `rules.py`. The rule "
        'in its docstring is "100 off at 1000 or more" (滿千折百), but the code checks '
        "`amount > threshold`, so an order of exactly 1000 gets no discount and pays 1000 "
        "instead of 900. The comparison should be `>=`.",
        "找到了。`checkout()` 的折扣來自 `rules.py` 的 `tier_discount()`。說明文字寫的規則是"
        "「滿千折百」，但程式碼判斷的是 `amount > threshold`，所以剛好 1000 元的訂單拿不到折扣，"
        "付了 1000 而不是 900。這裡應該用 `>=`。",
    ),
    # The recorded plan (the todo tool): Day 01's "it lists what it will do, one by one".
    "demo.model.plan.look": (
        "Look at the project and run the tests",
        "看看專案裡有什麼，跑一下測試",
    ),
    "demo.model.plan.read": (
        "Read the failing test and the code it calls",
        "讀失敗的測試，還有它呼叫到的程式碼",
    ),
    "demo.model.plan.fix": ("Fix the cause", "修正原因"),
    "demo.model.plan.rerun": ("Run the tests again", "再跑一次測試"),
    "demo.model.plan_done": (
        "All 7 tests pass, so every step of the plan is done.",
        "7 條測試全部通過，計畫的每一步都完成了。",
    ),
    "demo.model.rerun": (
        "Now let me run the tests again to confirm the fix.",
        "再跑一次測試，確認修好了。",
    ),
    "demo.model.done": (
        "✅ **Done! All tests pass now.**\n\n"
        "## Summary\n\n"
        "**Failing test:** `test_discount_at_exactly_1000`\n\n"
        "**Root cause:** in `rules.py`, `tier_discount()` used the wrong comparison\n"
        "- **Before:** `if amount > threshold:` (greater than)\n"
        "- **After:** `if amount >= threshold:` (greater than or equal)\n\n"
        'The rule is "100 off at 1000 or more", so an order of exactly 1000 must get the '
        "discount: 1000 - 100 = 900, and 900 is more than 800, so shipping is free. With `>`, "
        "exactly 1000 got no discount and the test saw 1000.\n\n"
        "The fix is one character in `rules.py`; no test was changed. All 7 tests pass now.",
        "✅ **完成！所有測試現在都通過了。**\n\n"
        "## 問題總結\n\n"
        "**失敗的測試：** `test_discount_at_exactly_1000`\n\n"
        "**根本原因：** 在 `rules.py` 的 `tier_discount()` 函數中，條件判斷錯誤\n"
        "- **原有代碼：** `if amount > threshold:` （大於）\n"
        "- **修正後：** `if amount >= threshold:` （大於等於）\n\n"
        "規則是「滿千折百」，剛好 1000 元也應該折 100：1000 - 100 = 900，900 大於 800 所以免運。"
        "原本用 `>`，剛好 1000 元拿不到折扣，測試才會得到 1000。\n\n"
        "只改了 `rules.py` 的一個字元，沒有動任何測試。現在所有 7 個測試都通過了。",
    ),
    "demo.model.done_unverified": (
        "I changed `if amount > threshold:` to `if amount >= threshold:` in `tier_discount()` "
        "(`rules.py`), so an order of exactly 1000 now gets the 100 discount. I was not allowed "
        "to run the tests, so I could not check it: `test_discount_at_exactly_1000` *should* "
        "pass now. Run `python -m pytest -v` to confirm.",
        "我把 `rules.py` 的 `tier_discount()` 裡的 `if amount > threshold:` 改成了 "
        "`if amount >= threshold:`，剛好 1000 元的訂單現在會折 100。不過我沒有被允許跑測試，"
        "沒辦法驗證：`test_discount_at_exactly_1000` 應該能通過了。"
        "請跑 `python -m pytest -v` 確認。",
    ),
    "demo.model.rejected": (
        "You rejected the change, so nothing was modified and `test_discount_at_exactly_1000` "
        "still fails. The fix I propose is one line in `tier_discount()` in `rules.py`: "
        '`if amount > threshold:` → `if amount >= threshold:`, because the rule is "100 off at '
        '1000 or more". Apply it yourself, or ask me again when you want it.',
        "你拒絕了這個修改，所以檔案沒有任何變動，`test_discount_at_exactly_1000` 還是會失敗。"
        "我建議的修法是 `rules.py` 的 `tier_discount()` 裡的一行：`if amount > threshold:` → "
        "`if amount >= threshold:`，因為規則是「滿千折百」。你可以自己改，或之後再叫我改。",
    ),
    "demo.model.edit_failed": (
        "The change to `rules.py` did not go through (see the tool result above), so nothing "
        "was modified. The fix is to change `if amount > threshold:` to "
        "`if amount >= threshold:` in `tier_discount()`; ask me again once the file is settled.",
        "對 `rules.py` 的修改沒有套用（見上面的工具結果），檔案沒有任何變動。修法是把 "
        "`tier_discount()` 裡的 `if amount > threshold:` 改成 `if amount >= threshold:`；"
        "檔案穩定之後可以再叫我改一次。",
    ),
    "demo.model.still_red": (
        "I changed `if amount > threshold:` to `if amount >= threshold:` in `rules.py`, but "
        "the test run did not come back green (see its output above). I stop here instead of "
        "guessing further; the change is in place for you to review.",
        "我把 `rules.py` 的 `if amount > threshold:` 改成了 `if amount >= threshold:`，"
        "但測試沒有全部通過（見上面的輸出）。我先停在這裡，不再亂猜；改動留著讓你檢查。",
    ),
    "demo.model.lost": (
        "This recording has no answer for where the conversation went. Nothing more will be "
        "changed; set ANTHROPIC_API_KEY to let the real model continue.",
        "這段錄好的過程沒有對應到目前的對話走向。不會再做任何修改；"
        "設定 ANTHROPIC_API_KEY 就能讓真正的模型接手。",
    ),
}

MESSAGES: Final[dict[str, tuple[str, str]]] = {**_SCREEN, **_MODEL}
