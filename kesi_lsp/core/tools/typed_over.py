"""Did the typing since the read touch the place an edit replaces? (seed Day 9, design I4)

The seed: 「不相干的變動沒必要擋」 -- the model read `title = "Hello"\ncount = 1`, the user changed
`title`, the model replaces `count = 1`: the edit lands on the current text and `title = "Hi"`
stays. Only typing that reaches the replaced text refuses it, because `old_string` is evidence
that *that piece* still reads as it did, nothing more.

So the differences from the text read to the text now are located (a line diff, refined to
characters inside each changed block) and the edit is stale only when one of them overlaps the
replaced span or touches it on the same line ("count = 1" typed into "count = 10" still contains
`count = 1`, but the user's `0` is glued to it). A change on another line never counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from kesi_lsp.core.diff import split_lines

MAX_REFINE: Final = 20_000  # characters per changed block compared character by character

Span = tuple[int, int]


def _offsets(lines: list[str]) -> list[int]:
    out, total = [0], 0
    for line in lines:
        total += len(line)
        out.append(total)
    return out


def _changed_spans(seen: str, now: str) -> Iterator[Span]:
    """Spans of `now` that differ from `seen`: inserted or replaced text as [a, b), removed text
    as an empty span where it was."""
    import difflib  # ~25 ms of import the server's start-up does not need (benchmark 4)

    old, new = split_lines(seen), split_lines(now)
    new_at = _offsets(new)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        a_text, b_text = "".join(old[i1:i2]), "".join(new[j1:j2])
        base = new_at[j1]
        if len(a_text) + len(b_text) > MAX_REFINE:
            yield base, new_at[j2]
            continue
        chars = difflib.SequenceMatcher(a=a_text, b=b_text, autojunk=False)
        for kind, _, _, k1, k2 in chars.get_opcodes():
            if kind != "equal":
                yield base + k1, base + k2


def _breaks_before(now: str, at: int) -> bool:
    return at == 0 or now[at - 1] in "\r\n"


def _breaks_after(now: str, at: int) -> bool:
    return at >= len(now) or now[at] in "\r\n"


def _touches(span: Span, start: int, end: int, now: str) -> bool:
    a, b = span
    if a < end and b > start:
        return True  # overlaps the replaced text
    if a == b and start < a < end:
        return True  # text removed inside it
    if b == start:  # inserted or removed right before it: only a line break keeps it apart
        return not _breaks_before(now, start)
    if a == end:  # right after it: a line break on either side keeps it apart
        return not (_breaks_before(now, end) or _breaks_after(now, end))
    return False


def typed_over(seen: str, now: str, start: int, length: int) -> bool:
    """Whether the differences from `seen` (the text read) to `now` touch `now[start:start +
    length]` (where old_string is now)."""
    end = start + length
    return any(_touches(span, start, end, now) for span in _changed_spans(seen, now))
