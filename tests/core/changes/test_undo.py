"""Keeping and undoing hunks: the plan, what it leaves alone, and what the model hears (§2.9)."""

from __future__ import annotations

from pathlib import Path

from kesi_lsp.core.changes.actions import Refusal, Target, keep, select
from kesi_lsp.core.changes.notes import note_text
from kesi_lsp.core.changes.report import outcome_lines
from kesi_lsp.core.changes.undo import UndoPlan, plan_undo, undone
from tests.core.changes.editor import Editor

P = Path("/ws/calc.py")
Q = Path("/ws/util.py")
CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n"
FIXED = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def two_hunks() -> Editor:
    ed = Editor()
    ed.buffers[P] = CALC
    ed.land(P, FIXED, rel="calc.py")
    return ed


def target(ed: Editor, **named: str | Path) -> Target:
    found = select(ed.changes, **named)  # type: ignore[arg-type]
    assert not isinstance(found, Refusal), found
    return found


def apply(ed: Editor, plan: UndoPlan) -> None:
    """What a front end does: put each file's `after` in place, then record it."""
    for item in plan.files:
        with ed.changes.holding(item.path):
            if item.after is None:
                ed.buffers.pop(item.path)
            else:
                ed.buffers[item.path] = item.after
    undone(ed.changes, plan, [item.path for item in plan.files])


def test_undo_one_keep_the_other() -> None:
    ed = two_hunks()
    first, second = ed.changes.hunks_at(P)
    plan = plan_undo(ed.changes, target(ed, hunk_id=first.id), {})
    apply(ed, plan)
    assert ed.buffers[P] == CALC.replace("a + b", "a - b")
    kept = keep(ed.changes, target(ed, hunk_id=second.id))
    assert [first.state, second.state] == ["undone", "kept"]
    assert outcome_lines("keep", kept, "en") == ["KeSi: kept calc.py line 6."]
    note = note_text(ed.changes.transitions, "en")
    assert note is not None
    assert "Undone by the user: calc.py line 2 (your change was taken back):" in note
    assert "    -    return a + b\n    +    return a - b" in note
    assert "Kept by the user: calc.py line 6." in note


def test_undo_again_and_keep_again_say_so_and_change_nothing() -> None:
    ed = two_hunks()
    first, second = ed.changes.hunks_at(P)
    apply(ed, plan_undo(ed.changes, target(ed, hunk_id=first.id), {}))
    text_after = ed.buffers[P]
    again = plan_undo(ed.changes, target(ed, hunk_id=first.id), {})
    assert again.empty
    assert outcome_lines("undo", undone(ed.changes, again, []), "en") == [
        "Nothing to do: calc.py line 2 already undone."
    ]
    keep(ed.changes, target(ed, hunk_id=second.id))
    twice = keep(ed.changes, target(ed, hunk_id=second.id))
    assert outcome_lines("keep", twice, "zh-TW") == ["不用再做：calc.py 第 6 行 已經保留了。"]
    assert ed.buffers[P] == text_after


def test_a_hunk_the_user_typed_in_is_named_and_left_alone() -> None:
    ed = two_hunks()
    first, second = ed.changes.hunks_at(P)
    ed.type_at(P, (1, 16), (1, 16), "  # mine")
    ed.changes.settle(P)
    plan = plan_undo(ed.changes, target(ed), {})
    apply(ed, plan)
    assert ed.buffers[P] == (
        "def add(a, b):\n    return a + b  # mine\n\n\ndef sub(a, b):\n    return a + b\n"
    )
    outcome = undone(ed.changes, plan, [])
    assert outcome_lines("undo", outcome, "en") == [
        "calc.py line 2: left alone, because it was changed after KeSi wrote it (that text stays)."
    ]
    assert (first.state, second.state) == ("modified", "undone")
    note = note_text(ed.changes.transitions, "en")
    assert note is not None and "Changed by the user: calc.py line 2; their text stays." in note
    assert "    +    return a + b  # mine" in note


def test_undo_of_a_file_that_was_deleted_or_renamed() -> None:
    ed = two_hunks()
    del ed.buffers[P]
    ed.changes.settle(P, None)
    plan = plan_undo(ed.changes, target(ed), {P: None})
    assert plan.empty
    lines = outcome_lines("undo", undone(ed.changes, plan, []), "en")
    assert lines == [
        "calc.py line 2: the file is not there any more (deleted or renamed), so KeSi cannot "
        "undo its change.",
        "calc.py line 6: the file is not there any more (deleted or renamed), so KeSi cannot "
        "undo its change.",
    ]


def test_the_users_typing_between_hunks_survives_an_undo() -> None:
    ed = two_hunks()
    ed.insert_line(P, 3, "# the user's note\n")
    apply(ed, plan_undo(ed.changes, target(ed), {}))
    assert ed.buffers[P] == CALC[:33] + "# the user's note\n" + CALC[33:]


def test_a_created_file_is_deleted_only_if_unchanged() -> None:
    ed = two_hunks()
    ed.land(Q, "def helper():\n    pass\n", rel="util.py")
    plan = plan_undo(ed.changes, target(ed, path=Q), {})
    [item] = plan.files
    assert (item.before, item.after) == ("def helper():\n    pass\n", None)
    ed2 = Editor()
    ed2.land(Q, "x = 1\n", rel="util.py")
    ed2.insert_line(Q, 1, "y = 2\n")
    plan2 = plan_undo(ed2.changes, target(ed2), {})
    assert plan2.empty
    assert outcome_lines("undo", undone(ed2.changes, plan2, []), "en") == [
        "util.py: KeSi created this file, but it was changed since; left as it is."
    ]


def test_a_later_run_supersedes_an_earlier_hunk_it_rewrote() -> None:
    ed = two_hunks()
    first, second = ed.changes.hunks_at(P)
    ed.land(P, ed.buffers[P].replace("return a + b\n", "return b + a\n", 1), run="r2")
    assert first.state == "modified" and first.superseded
    ed.changes.settle(P)
    assert not ed.changes.transitions  # not the user's doing: the model is not told so
    plan = plan_undo(ed.changes, target(ed, run_id="r1"), {})
    [item] = plan.files
    assert [h for _, h in item.hunks] == [second]


def test_edits_of_one_run_next_to_each_other_merge_into_one_hunk() -> None:
    ed = Editor()
    ed.buffers[P] = "a\nb\nc\nd\n"
    ed.land(P, "a\nB\nc\nd\n")
    ed.land(P, "a\nB\nC\nd\n")
    [hunk] = ed.changes.hunks_at(P)
    assert (hunk.start, hunk.base, hunk.written) == (1, ("b\n", "c\n"), ("B\n", "C\n"))
    apply(ed, plan_undo(ed.changes, target(ed), {}))
    assert ed.buffers[P] == "a\nb\nc\nd\n"


def test_unknown_and_dropped_ids_are_refused_with_a_reason() -> None:
    ed = two_hunks()
    for named, reason in [
        ({"run_id": "nope"}, "unknownRun"),
        ({"hunk_id": "9.9"}, "unknownHunk"),
    ]:
        refused = select(ed.changes, **named)  # type: ignore[arg-type]
        assert isinstance(refused, Refusal) and refused.reason == reason
    empty = select(Editor().changes)
    assert isinstance(empty, Refusal) and empty.reason == "noChanges"
    assert empty.message("en").startswith("KeSi has no changes to act on in this folder")
