"""edit_file (seed Day 09 + design I3/I4): exact, unique, reviewed, never over the user's typing."""

from __future__ import annotations

import pytest

from kesi_lsp.catalog import Locale
from kesi_lsp.core.approval import Choice
from kesi_lsp.core.events import EditApplied
from kesi_lsp.core.tools import ToolResult
from tests.core.approvers import AlwaysAllow, AlwaysDeny, Scripted
from tests.core.workspace import Workspace, make_workspace


async def edit(ws: Workspace, path: str, old: str, new: str) -> ToolResult:
    return await ws.call("edit_file", file_path=path, old_string=old, new_string=new)


async def test_replaces_exactly_one_place_and_reports_the_line(zh: Workspace) -> None:
    zh.write("counter.py", "total = 0\ncount += 1\nprint(total)\n")
    result = await edit(zh, "counter.py", "count += 1", "count += 2")
    assert result == ToolResult("替換完成（從第 2 行開始）。")
    assert zh.read("counter.py") == b"total = 0\ncount += 2\nprint(total)\n"


async def test_the_change_is_shown_for_review_then_reported(tmp_path: object) -> None:
    approver = AlwaysAllow()
    ws = make_workspace(tmp_path, approver)  # type: ignore[arg-type]
    ws.write("greet.py", 'print("helo")\n')
    result = await edit(ws, "greet.py", 'print("helo")', 'print("hello")')
    assert result == ToolResult("Replaced (starting at line 1).")
    [request] = approver.edits
    assert request.tool == "edit_file"
    assert request.rel == "greet.py"
    assert request.before == 'print("helo")\n'
    assert request.after == 'print("hello")\n'
    assert '-print("helo")' in request.diff
    assert '+print("hello")' in request.diff
    assert ws.events == [EditApplied("edit_file", "greet.py", request.diff)]


async def test_user_rejects_nothing_changes(tmp_path: object) -> None:
    ws = make_workspace(tmp_path, AlwaysDeny(), locale="zh-TW")  # type: ignore[arg-type]
    path = ws.write("greet.py", 'print("helo")\n')
    await ws.call("read_file", file_path="greet.py")
    record = dict(ws.session.reads)
    result = await edit(ws, "greet.py", "helo", "hello")
    assert result == ToolResult("錯誤：使用者拒絕修改這個檔案。", True)
    assert ws.read("greet.py") == b'print("helo")\n'
    assert ws.events == []
    assert ws.session.reads == record  # still a valid read: the file did not change
    assert path not in ws.session.grants.files


async def test_allow_for_session_grants_this_file_only(tmp_path: object) -> None:
    approver = Scripted([Choice.ALLOW_SESSION, Choice.DENY])
    ws = make_workspace(tmp_path, approver)  # type: ignore[arg-type]
    rules = ws.write("rules.py", "a = 1\nb = 2\n")
    ws.write("test_rules.py", "x = 1\n")
    assert not (await edit(ws, "rules.py", "a = 1", "a = 10")).is_error
    assert ws.session.grants.files == {rules}
    # the grant covers the next change of rules.py without a question ...
    assert not (await edit(ws, "rules.py", "b = 2", "b = 20")).is_error
    assert len(approver.edits) == 1
    # ... and write_file of the same file, but not another file
    await ws.call("read_file", file_path="rules.py")
    assert not (await ws.call("write_file", file_path="rules.py", content="c = 3\n")).is_error
    assert len(approver.edits) == 1
    refused = await edit(ws, "test_rules.py", "x = 1", "x = 2")
    assert refused.is_error
    assert len(approver.edits) == 2
    assert ws.read("test_rules.py") == b"x = 1\n"


async def test_not_found_and_file_untouched(zh: Workspace) -> None:
    zh.write("a.py", "x = 1\n")
    result = await edit(zh, "a.py", "y = 1", "y = 2")
    assert result == ToolResult(
        "錯誤：在檔案裡找不到要替換的文字。old_string 必須與檔案內容"
        "完全一致（包含空白、縮排與換行），請先用 read_file 確認目前內容。",
        True,
    )
    assert zh.read("a.py") == b"x = 1\n"


async def test_more_than_one_match_is_refused(zh: Workspace) -> None:
    zh.write("c.py", "count += 1\ncount += 1\n")
    result = await edit(zh, "c.py", "count += 1", "count += 2")
    assert result == ToolResult(
        "錯誤：要替換的文字在檔案裡不只出現一次，無法確定要改哪一處。"
        "請加長 old_string、納入更多前後文，使它在檔案中唯一。",
        True,
    )
    assert zh.read("c.py") == b"count += 1\ncount += 1\n"


async def test_overlapping_matches_count_as_two(zh: Workspace) -> None:
    zh.write("work.txt", "aaa")
    result = await edit(zh, "work.txt", "aa", "X")
    assert result.is_error
    assert "不只出現一次" in result.text
    assert zh.read("work.txt") == b"aaa"


async def test_more_context_makes_it_unique(ws: Workspace) -> None:
    ws.write("counter.py", "total = 0\ncount += 1\nprint(total)\ncount += 1\n")
    result = await edit(
        ws,
        "counter.py",
        "total = 0\ncount += 1\nprint(total)\ncount += 1",
        "total = 0\ncount += 1\nprint(total)\ncount += 2",
    )
    assert result == ToolResult("Replaced (starting at line 1).")
    assert ws.read("counter.py") == b"total = 0\ncount += 1\nprint(total)\ncount += 2\n"


async def test_empty_old_string_and_identical_strings(zh: Workspace) -> None:
    zh.write("a.py", "x\n")
    assert await edit(zh, "a.py", "", "y") == ToolResult("錯誤：old_string 不可為空。", True)
    assert await edit(zh, "a.py", "x", "x") == ToolResult(
        "錯誤：old_string 與 new_string 相同，沒有內容需要修改。", True
    )
    assert zh.read("a.py") == b"x\n"


async def test_empty_new_string_deletes(ws: Workspace) -> None:
    ws.write("c.py", "total = 0\ncount += 1\nprint(total)\n")
    assert not (await edit(ws, "c.py", "count += 1", "")).is_error
    assert ws.read("c.py") == b"total = 0\n\nprint(total)\n"
    assert not (await edit(ws, "c.py", "\n\n", "\n")).is_error
    assert ws.read("c.py") == b"total = 0\nprint(total)\n"


async def test_multiline_block_replacement(ws: Workspace) -> None:
    ws.write("f.py", "def f():\n    a = 1\n    b = 2\n    return a + b\n\nx = f()\n")
    result = await edit(ws, "f.py", "    a = 1\n    b = 2\n    return a + b\n", "    return 3\n")
    assert result == ToolResult("Replaced (starting at line 2).")
    assert ws.read("f.py") == b"def f():\n    return 3\n\nx = f()\n"


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (b"one\ntwo\nthree\n", 3),
        (b"one\r\ntwo\r\nthree\r\n", 3),
        (b"one\rtwo\rthree\r", 3),
        (b"one\r\ntwo\nthree\r", 3),
    ],
)
async def test_start_line_counts_lf_cr_crlf(ws: Workspace, content: bytes, line: int) -> None:
    ws.write("e.txt", content)
    result = await edit(ws, "e.txt", "three", "3")
    assert result == ToolResult(f"Replaced (starting at line {line}).")


async def test_crlf_must_match_and_other_line_ends_survive(ws: Workspace) -> None:
    ws.write("crlf.txt", b"x = 1\r\ny = 2\r\n")
    assert (await edit(ws, "crlf.txt", "x = 1\n", "x = 9\n")).is_error
    assert not (await edit(ws, "crlf.txt", "x = 1\r\n", "x = 9\r\n")).is_error
    assert ws.read("crlf.txt") == b"x = 9\r\ny = 2\r\n"


async def test_not_utf8_directory_outside_symlink_into_env(zh: Workspace) -> None:
    zh.write("big5.txt", "中文".encode("big5"))
    (zh.root / "dir").mkdir()
    zh.write(".env", "KEY=1\n")
    (zh.root / "settings").symlink_to(zh.root / ".env")
    (zh.root / "out").symlink_to(zh.outside / "secret.txt")
    assert await edit(zh, "big5.txt", "a", "b") == ToolResult(
        "錯誤：檔案不是 UTF-8 文字檔 big5.txt", True
    )
    assert await edit(zh, "dir", "a", "b") == ToolResult("錯誤：不是可以修改的文字檔 dir", True)
    assert await edit(zh, "../outside/secret.txt", "outside", "x") == ToolResult(
        "錯誤：找不到或不允許存取檔案 ../outside/secret.txt", True
    )
    assert await edit(zh, "out", "outside", "x") == ToolResult(
        "錯誤：找不到或不允許存取檔案 out", True
    )
    for name in ("settings", ".env", "sub/../.env"):
        (zh.root / "sub").mkdir(exist_ok=True)
        assert await edit(zh, name, "KEY", "K") == ToolResult("錯誤：這個檔案不開放修改。", True)
    assert zh.read(".env") == b"KEY=1\n"
    assert (zh.outside / "secret.txt").read_text(encoding="utf-8") == "outside secret content\n"


async def test_edit_without_reading_is_allowed_like_the_seed(ws: Workspace) -> None:
    ws.write("greet.py", 'print("helo")\n')
    assert not (await edit(ws, "greet.py", "helo", "hello")).is_error


async def test_successful_edit_clears_the_read_record(ws: Workspace) -> None:
    path = ws.write("config.py", "DEBUG = False\n")
    await ws.call("read_file", file_path="config.py")
    assert path in ws.session.reads
    await edit(ws, "config.py", "False", "True")
    assert path not in ws.session.reads
    # so an overwrite now needs a fresh read (Day 10)
    result = await ws.call("write_file", file_path="config.py", content="DEBUG = 1\n")
    assert result.is_error
    assert "read_file" in result.text


async def test_typing_elsewhere_after_the_read_does_not_block_the_edit(zh: Workspace) -> None:
    """Day 9, the seed's own example: the model read `title = "Hello"` / `count = 1`, the user
    changed `title`, the model replaces `count = 1`: it lands on the current text, and the
    user's `title = "Hi"` stays (不相干的變動沒必要擋)."""
    zh.write("app.py", 'title = "Hello"\ncount = 1\n')
    await zh.call("read_file", file_path="app.py")
    zh.write("app.py", 'title = "Hi"\ncount = 1\n')  # the user's typing
    result = await edit(zh, "app.py", "count = 1", "count = 2")
    assert result == ToolResult("替換完成（從第 2 行開始）。")
    assert zh.read("app.py") == b'title = "Hi"\ncount = 2\n'


_READ = 'title = "Hello"\ncount = 1\n'
_NO_MATCH = {
    "en": "Error: the text to replace was not found in the file. old_string must match the "
    "file's content exactly (spaces, indentation and line breaks included); use read_file "
    "to check the current content first.",
    "zh-TW": "錯誤：在檔案裡找不到要替換的文字。old_string 必須與檔案內容"
    "完全一致（包含空白、縮排與換行），請先用 read_file 確認目前內容。",
}
_NOT_UNIQUE = {
    "en": "Error: the text to replace occurs more than once in the file, so it is not clear "
    "which one to change. Make old_string longer and include more surrounding context so "
    "that it is unique in the file.",
    "zh-TW": "錯誤：要替換的文字在檔案裡不只出現一次，無法確定要改哪一處。"
    "請加長 old_string、納入更多前後文，使它在檔案中唯一。",
}
_CHANGED = {
    "en": " (The file was changed after you read it; read_file shows its current text.)",
    "zh-TW": "（你讀取之後這個檔案被改過了，read_file 可以看到目前的內容。）",
}
_STALE = {
    "en": "Error: the text to replace was changed after you read the file (the user or another "
    "program edited that part). Nothing was changed; read it again with read_file before "
    "editing.",
    "zh-TW": "錯誤：要替換的那段內容在讀取後又被改過（使用者或其他程式改了那裡），什麼都沒有改；"
    "請重新 read_file 後再修改。",
}
_DONE = {"en": "Replaced (starting at line 2).", "zh-TW": "替換完成（從第 2 行開始）。"}

# Day 9's table: what the user typed after the model read _READ, and what replacing
# `count = 1` with `count = 3` then answers ("" = unchanged file, None = landed).
_DAY9 = [
    ('title = "Hi"\ncount = 1\n', _DONE, 'title = "Hi"\ncount = 3\n', "seed: title changed"),
    ('title = "Hello"\ncount = 2\n', _NO_MATCH, "", "seed: the replaced text changed"),
    ('title = "Hello"\ncount = 10\n', _STALE, "", "typed onto it: would become count = 30"),
    ('title = "Hello"\n# count = 1\ncount = 1\n', _NOT_UNIQUE, "", "now appears twice"),
]


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
@pytest.mark.parametrize(("typed", "said", "after", "why"), _DAY9)
async def test_day9_table_of_typing_after_the_read(
    tmp_path: object,
    locale: Locale,
    typed: str,
    said: dict[str, str],
    after: str,
    why: str,
) -> None:
    """Day 9: unrelated typing never blocks (「不相干的變動沒必要擋」); a missing or repeated
    old_string gets the seed's own text, noting the change; typing over the one match is stale.
    Whatever is refused leaves the user's text as typed, and reading again makes it go through
    when the text is unique again."""
    ws = make_workspace(tmp_path, locale=locale)  # type: ignore[arg-type]
    ws.write("app.py", _READ)
    await ws.call("read_file", file_path="app.py")
    ws.write("app.py", typed)
    result = await edit(ws, "app.py", "count = 1", "count = 3")
    if said is _DONE:
        assert result == ToolResult(said[locale]), why
        assert ws.read("app.py") == after.encode()
        return
    note = _CHANGED[locale] if said is not _STALE else ""
    assert result == ToolResult(said[locale] + note, True), why
    assert ws.read("app.py") == typed.encode()
    await ws.call("read_file", file_path="app.py")
    again = await edit(ws, "app.py", "count = 1\n", "count = 3\n")
    assert again.is_error == (typed.count("count = 1\n") != 1)


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_no_match_without_typing_has_no_note(tmp_path: object, locale: Locale) -> None:
    """The note is only there when the file changed since the read: a plain miss is the seed's
    text alone."""
    ws = make_workspace(tmp_path, locale=locale)  # type: ignore[arg-type]
    ws.write("app.py", _READ)
    await ws.call("read_file", file_path="app.py")
    result = await edit(ws, "app.py", "count = 2", "count = 3")
    assert result == ToolResult(_NO_MATCH[locale], True)


async def test_typing_on_the_same_line_next_to_the_replaced_text_is_stale(tmp_path: object) -> None:
    """A change glued to the replaced text on its line counts as touching it; one on the next
    line (after its line break) does not."""
    ws = make_workspace(tmp_path, AlwaysAllow())  # type: ignore[arg-type]
    ws.write("a.py", "x = f(a - b)\ny = 1\n")
    await ws.call("read_file", file_path="a.py")
    ws.write("a.py", "x = f(a - bc)\ny = 1\n")
    assert (await edit(ws, "a.py", "a - b", "a + b")).is_error
    await ws.call("read_file", file_path="a.py")
    ws.write("a.py", "x = f(a - bc)\ny = 2\n")
    assert not (await edit(ws, "a.py", "x = f(a - bc)\n", "x = f(a + bc)\n")).is_error
    assert ws.read("a.py") == b"x = f(a + bc)\ny = 2\n"


async def test_a_file_changing_during_review_is_not_overwritten(tmp_path: object) -> None:
    """The user edits the file while the review question is open: nothing is lost."""

    class TypesWhileAsked(AlwaysAllow):
        async def approve_edit(self, request):  # type: ignore[no-untyped-def]
            request.path.write_bytes(b"x = 1\n# the user's new line\n")
            return await super().approve_edit(request)

    ws = make_workspace(tmp_path, TypesWhileAsked())  # type: ignore[arg-type]
    ws.write("a.py", "x = 1\n")
    result = await edit(ws, "a.py", "x = 1", "x = 2")
    assert result.is_error
    assert "changed while the edit was being made" in result.text
    assert ws.read("a.py") == b"x = 1\n# the user's new line\n"
    assert ws.events == []


async def test_lone_surrogate_cannot_be_written(zh: Workspace) -> None:
    zh.write("a.py", "x\n")
    result = await edit(zh, "a.py", "x", "\ud800")
    assert result == ToolResult("錯誤：new_string 含有無法寫成 UTF-8 的內容。", True)
    assert zh.read("a.py") == b"x\n"


async def test_file_mode_is_kept(ws: Workspace) -> None:
    path = ws.write("run.sh", "echo hi\n")
    path.chmod(0o754)
    await edit(ws, "run.sh", "hi", "hello")
    assert path.stat().st_mode & 0o777 == 0o754
