"""Hunks follow the user's typing: outside a hunk it moves, inside it is the user's (§2.9)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kesi_lsp.core.changes.hunks import Hunk
from tests.core.changes.editor import Editor

P = Path("/ws/calc.py")
BEFORE = "".join(f"line {i}\n" for i in range(10))


def landed_pair(ed: Editor) -> tuple[Hunk, Hunk]:
    """Two pending hunks: line 2 replaced, lines 6-7 replaced by three lines."""
    ed.buffers[P] = BEFORE
    lines = BEFORE.splitlines(keepends=True)
    lines[2] = "TWO\n"
    lines[6:8] = ["SIX\n", "SIX-B\n", "SEVEN\n"]
    ed.land(P, "".join(lines))
    first, second = ed.changes.hunks_at(P)
    return first, second


def test_two_hunks_are_recorded_with_their_base_and_written_lines() -> None:
    ed = Editor()
    first, second = landed_pair(ed)
    assert (first.start, first.base, first.written) == (2, ("line 2\n",), ("TWO\n",))
    assert (second.start, second.span) == (6, 3)
    assert second.base == ("line 6\n", "line 7\n")
    assert first.state == second.state == "pending"


def test_lines_typed_above_move_the_hunks_below() -> None:
    ed = Editor()
    first, second = landed_pair(ed)
    ed.insert_line(P, 0, "# a comment\n# and another\n")
    assert (first.start, second.start) == (4, 8)
    ed.delete_lines(P, 0, 1)
    assert (first.start, second.start) == (3, 7)
    assert ed.lines(P, first.start, 1) == "TWO\n"
    assert ed.lines(P, second.start, 3) == "SIX\nSIX-B\nSEVEN\n"
    ed.changes.settle(P)
    assert first.state == second.state == "pending"  # the user's lines are not the agent's


def test_typing_between_two_hunks_moves_only_the_second() -> None:
    ed = Editor()
    first, second = landed_pair(ed)
    ed.type_at(P, (4, 0), (4, 6), "four, retyped\nand split")
    assert (first.start, second.start) == (2, 7)
    ed.changes.settle(P)
    assert [first.state, second.state] == ["pending", "pending"]


def test_typing_inside_a_hunk_makes_it_modified_and_leaves_the_other() -> None:
    ed = Editor()
    first, second = landed_pair(ed)
    ed.type_at(P, (2, 3), (2, 3), "!")
    assert first.touched
    ed.changes.settle(P)
    assert first.state == "modified" and second.state == "pending"
    [said] = ed.changes.transitions
    assert (said.kind, said.hunk, said.now) == ("modified", first, ("TWO!\n",))


def test_typing_inside_and_taking_it_back_leaves_it_pending() -> None:
    ed = Editor()
    first, _ = landed_pair(ed)
    ed.type_at(P, (2, 3), (2, 3), "!")
    ed.type_at(P, (2, 3), (2, 4), "")
    ed.changes.settle(P)
    assert first.state == "pending" and not ed.changes.transitions


def test_text_glued_onto_the_first_line_of_a_hunk_touches_it() -> None:
    ed = Editor()
    first, _ = landed_pair(ed)
    ed.type_at(P, (1, 6), (2, 0), "")  # join line 1 with the hunk's line
    ed.changes.settle(P)
    assert first.state == "modified"


def test_a_new_line_right_after_a_hunk_does_not_touch_it() -> None:
    ed = Editor()
    first, second = landed_pair(ed)
    ed.insert_line(P, 3, "inserted\n")  # at the start of the line after the first hunk
    ed.changes.settle(P)
    assert first.state == "pending" and (first.start, second.start) == (2, 7)


def test_a_hunk_at_the_end_of_a_file_without_a_final_newline() -> None:
    ed = Editor()
    ed.buffers[P] = "a\nb"
    ed.land(P, "a\nB")
    [hunk] = ed.changes.hunks_at(P)
    assert hunk.open_end
    ed.type_at(P, (1, 1), (1, 1), "\nmore")  # a new line after it
    ed.changes.settle(P)
    assert hunk.state == "pending"
    ed.type_at(P, (1, 0), (1, 0), "x")
    ed.changes.settle(P)
    assert hunk.state == "modified"


def test_removing_the_lines_of_a_hunk_makes_it_modified() -> None:
    ed = Editor()
    first, second = landed_pair(ed)
    ed.delete_lines(P, 6, 3)
    ed.changes.settle(P)
    assert second.state == "modified" and first.state == "pending"
    assert ed.changes.transitions[0].now == ()


def test_a_whole_document_sync_realigns_by_diff() -> None:
    ed = Editor()
    first, second = landed_pair(ed)
    old = ed.buffers[P]
    new = "top\n" + old.replace("SIX-B\n", "six-b, mine\n")
    ed.buffers[P] = new
    ed.changes.replaced(P, old, new)
    ed.changes.settle(P)
    assert (first.start, first.state) == (3, "pending")
    assert second.state == "modified"


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 30),
            st.integers(0, 3),
            st.sampled_from(["", "x\n", "new line\nand another\n", "\n"]),
        ),
        max_size=12,
    )
)
def test_typing_outside_the_hunks_never_counts_as_the_agents(
    edits: list[tuple[int, int, str]],
) -> None:
    """Whole-line edits anywhere outside the hunks: every hunk still holds exactly what the
    agent wrote, where the tracker says it is."""
    ed = Editor()
    first, second = landed_pair(ed)
    for line, count, new in edits:
        total = len(ed.buffers[P].splitlines())
        line = min(line, total)
        count = min(count, total - line)
        end = line + count
        if any(line < h.end and end > h.start for h in (first, second)):
            continue  # inside a hunk: another test's business
        if any(h.start < line < h.end for h in (first, second)):
            continue
        ed.type_at(P, (line, 0), (end, 0), new)
    ed.changes.settle(P)
    assert first.state == second.state == "pending"
    assert ed.lines(P, first.start, first.span) == "TWO\n"
    assert ed.lines(P, second.start, second.span) == "SIX\nSIX-B\nSEVEN\n"
