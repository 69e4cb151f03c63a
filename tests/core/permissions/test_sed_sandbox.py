"""Issue 24 item 1: a sed script can no longer run, read or write anything unasked.

The scripts below hid sed's `e` (execute) and `w` (write) behind a bracket expression: GNU sed
reads `/[/p;\\%]/` as one regex, the old reader split it at the first `/` and saw only `p`s.
They were auto-allowed and ran (a `w` writes its file even when no line matches). Each case
runs what the policy would run, in a scratch workspace, and checks that nothing was executed or
written; on the old code `pwned` appears.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kesi_lsp.core.permissions import classify, policy
from kesi_lsp.core.permissions.sedrun import sandbox_supported
from kesi_lsp.core.permissions.sedscript import print_only
from tests.core.permissions.conftest import Layout

HIDDEN_BEHIND_BRACKETS = [
    "sed -n '/[/p;\\%]/e touch pwned %p' notes.txt",  # e: runs `touch pwned %p`
    "sed -n '/[/p;\\%]/w pwned %p' notes.txt",  # w: writes the file `pwned %p`
    "sed -n -e '/[/p;\\%]/e touch pwned %p' notes.txt",
    "sed -n '\\,[,p;\\%],e touch pwned %p' notes.txt",  # a custom delimiter, the same trick
    "sed -n '1{/[/p;\\%]/e touch pwned %p\n}' notes.txt",  # inside a block, on its own line
]


def _runs(layout: Layout, command: str) -> bool:
    """Run what the policy would run for `command` when it allows it; whether `pwned*` exists.

    `notes.txt` holds a line every hidden address matches, so an `e` would really run.
    """
    (layout.root / "notes.txt").write_text("p/%,\n")
    verdict = classify(command, layout.root, layout.home)
    if verdict.kind == "allow":
        actual = verdict.command or command
        subprocess.run(["/bin/sh", "-c", actual], cwd=layout.root, capture_output=True, timeout=10)
    return any(layout.root.glob("pwned*"))


@pytest.mark.parametrize("command", HIDDEN_BEHIND_BRACKETS)
def test_a_bracket_hides_nothing_from_gnu_sed(layout: Layout, command: str) -> None:
    assert sandbox_supported(), "GNU sed with --sandbox is expected on Linux"
    assert not _runs(layout, command), command


@pytest.mark.parametrize("command", HIDDEN_BEHIND_BRACKETS)
def test_a_sed_without_sandbox_asks(
    layout: Layout, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BSD/macOS sed knows no `--sandbox`: every such script asks, naming sed."""
    monkeypatch.setattr(policy, "sandbox_supported", lambda: False)
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask" and "sed" in verdict.reason, command


def test_an_allowed_sed_runs_with_sandbox_and_still_prints(layout: Layout) -> None:
    verdict = classify("sed -n 1p README.md | sed -n 1p", layout.root, layout.home)
    assert verdict.kind == "allow"
    assert verdict.command == "sed --sandbox -n 1p README.md | sed --sandbox -n 1p"
    done = subprocess.run(
        ["/bin/sh", "-c", verdict.command], cwd=layout.root, capture_output=True, text=True
    )
    assert done.stdout == "# demo\n"


def test_a_sed_without_sandbox_still_prints_plain_scripts_unasked(
    layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(policy, "sandbox_supported", lambda: False)
    for command in ("sed -n 1,5p README.md", "sed -n '/demo/p' README.md", "sed 2q README.md"):
        verdict = classify(command, layout.root, layout.home)
        assert (verdict.kind, verdict.command) == ("allow", None), command
    for command in ("sed -n '/[d]emo/p' README.md", "sed s/a/b/ README.md", "sed -n 'h;x;p' x"):
        assert classify(command, layout.root, layout.home).kind == "ask", command


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("/[/]/p", True),  # one regex, as GNU sed reads it
        ("/[]/]/p", True),  # a `]` first is a member
        ("/[^]/]/p", True),
        ("/[[:alpha:]/]/p", True),
        ("\\,[,],p", True),
        ("s/[/]/x/g", True),
        ("y/[/]/", True),  # y's sides are no regex: `[` is literal, `/` ends them
        ("/[/p;\\%]/e touch x %p", False),
        ("/[/p;\\%]/w out %p", False),
        ("s/[/]/x/w out", False),
        ("/[/p", False),  # unterminated: sed refuses it too
        ("s/a/[/]/", False),  # the replacement is no regex: `]/` are flags, and unknown
    ],
)
def test_the_reader_follows_gnu_brackets(script: str, expected: bool) -> None:
    assert print_only(script) is expected, script


def test_gnu_sed_agrees_with_the_reader_on_its_examples(tmp_path: Path) -> None:
    """The reader's accepted bracket scripts are accepted by this sed, which prints with them."""
    sample = tmp_path / "in.txt"
    sample.write_text("a/b\nc]d\n")
    for script in ("/[/]/p", "/[]/]/p", "/[[:alpha:]/]/p", "s/[/]/x/gp"):
        done = subprocess.run(
            ["sed", "--sandbox", "-n", script, str(sample)], capture_output=True, text=True
        )
        assert done.returncode == 0 and done.stdout, (script, done.stderr)
