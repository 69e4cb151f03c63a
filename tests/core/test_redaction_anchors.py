"""The redactor's one-pass anchor search finds every start of every anchor, as a `str.find`
per anchor does, in ASCII and other text, where anchors overlap too (`AKIAWS`, `xoxox`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kesi_lsp.core.redaction import ANCHORS, redact
from kesi_lsp.core.redaction.anchors import AnchorSearch

SEARCH = AnchorSearch(ANCHORS)


def every_start(content: str) -> set[tuple[int, int]]:
    """The slow truth: each anchor's every start, one `str.find` after another."""
    found = set()
    for index, anchor in enumerate(ANCHORS):
        at = content.find(anchor)
        while at != -1:
            found.add((index, at))
            at = content.find(anchor, at + 1)
    return found


# Text made of the anchors' own pieces, so that they touch and overlap often.
PIECES = st.sampled_from([*ANCHORS, "A", "IA", "WS", "ox", "k", "é", "—", " ", "\n", "x", "_"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_the_one_pass_finds_what_a_find_per_anchor_finds(content: str) -> None:
    found = list(SEARCH(content))
    assert len(found) == len(set(found))  # each start once
    assert set(found) == every_start(content)


def test_overlapping_anchors_and_other_text() -> None:
    for content in ("AKIAWS", "xoxoxb-", "awsk-", "AIzaws", "é AKIAIza — xox"):
        assert set(SEARCH(content)) == every_start(content), content


def test_a_token_after_non_ascii_text_is_redacted_at_its_place() -> None:
    token = "ghp_" + "aB3dE5fG7hJ9" * 3
    assert redact(f"測試 — {token} ✓", {}, "en") == "測試 — [redacted: GitHub token] ✓"
