"""Hidden-probe checks for the read-only programs (issue 16, design §3), spellings of our own.

Each table is one class the issue names, probed with commands an outside checker would try:
other programs, option spellings getopt accepts (one-letter long prefixes, optional values
that never take the next word), ripgrep's whitelists, bash-only quoting. Each of these was
misjudged before the fix it sits next to; the last tables are the other side (what must stay
allowed, and what may only ask).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core.permissions import classify
from tests.core.permissions.conftest import Layout

FOLDERS_READ_WITHOUT_R = [
    "diff -N src .",  # printed ./.env: diff compares a folder's files without -r
    "diff --new-file src .",
    "diff --unidirectional-new-file src config",
    "diff --from-file=. src",  # the value is a folder too
    "diff --to-file config src",
    "grep --dir=recurse KEY .",  # a unique prefix of --directories=recurse
    "grep --direc=recurse KEY config",
    "grep --color -r KEY config",  # --color takes its value only with '='
    "grep --colour KEY .env",  # ... so `.env` is a file, not the colour
]
RIPGREP_WHITELISTS = [
    "rg -g .env KEY config",  # a glob wins over ripgrep's hidden-file rule
    "rg --glob=.env KEY config",
    "rg --iglob .ENV KEY config",
    "rg -g '*' KEY config",
    "rg -g '{.env,x}' KEY config",
    "rg --type-add e:.env -t e KEY config",
]
ONE_LETTER_PREFIXES = [
    "sed --i s/a/b/ README.md",  # --in-place
    "sed --e='w out.txt' 1p README.md",  # --expression: the script writes out.txt
    "sort --o=out.txt README.md",  # --output
    "tail --f README.md",  # --follow
    "date --s=2030-01-01",  # --set
]
READS_A_LIST_OF_FILES = [
    "sort --files0-from=list.txt",  # the names inside list.txt are never checked
    "wc --files0-from=list.txt",
    "du --files0-from list.txt",
]
SETS_THE_CLOCK = ["date 0101000030", "date -u 010100002030.00"]
BASH_QUOTING = [
    "cat $'.env'",  # bash (macOS' sh) reads .env
    "cat $'\\x2eenv'",
    'cat $".env"',
    "head $'config/.env'",
]


@pytest.mark.parametrize(
    "command",
    FOLDERS_READ_WITHOUT_R
    + RIPGREP_WHITELISTS
    + ONE_LETTER_PREFIXES
    + READS_A_LIST_OF_FILES
    + SETS_THE_CLOCK
    + BASH_QUOTING,
)
def test_asks(layout: Layout, command: str) -> None:
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask", (command, verdict.reason)


@pytest.mark.parametrize("name", [".ignore", ".rgignore", ".gitignore", "config/.ignore"])
def test_an_ignore_file_whitelisting_a_secret_makes_rg_ask(layout: Layout, name: str) -> None:
    """A cloned project may ship `!.env` in an ignore file: ripgrep then reads config/.env."""
    command = "rg KEY config"
    assert classify(command, layout.root, layout.home).kind == "allow"
    (layout.root / name).write_text("*.log\n!.env\n")
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask" and "config" in verdict.reason


def test_rg_ignore_file_option_is_read_too(layout: Layout) -> None:
    (layout.root / "wl.txt").write_text("!.env\n")
    assert classify("rg --ignore-file wl.txt KEY config", layout.root, layout.home).kind == "ask"


def test_a_symlink_to_a_folder_is_judged_by_that_folder(layout: Layout) -> None:
    """`grep -r x link` follows a symlink it is given: `link -> .` reaches ./.env."""
    (layout.root / "current").symlink_to(layout.root)
    for command in ("grep -r KEY current", "diff -r src current", "rg -uu KEY current"):
        verdict = classify(command, layout.root, layout.home)
        assert verdict.kind == "ask" and "current" in verdict.reason, command
    (layout.root / "code").symlink_to(layout.root / "src")
    assert classify("grep -r print code", layout.root, layout.home).kind == "allow"


STAYS_ALLOWED = [
    "rg --files src",  # names only: no pattern operand, nothing read
    "rg --files config",
    "rg -n print -g '*.py' src",  # a glob that cannot match a closed name
    "rg -g '!*.md' print src",
    "rg -tpy print src",
    "date -Iseconds",  # -I's value is glued; `s` is not -s (set)
    "date -I",
    "date +%s",
    "date -u +%Y-%m-%dT%H:%M:%SZ",
    "date --rfc-3339 seconds",
    "date -j -f %Y%m%d 20240101 +%s",  # BSD/macOS: -j reads the date, never sets it
    "grep --color=never demo README.md",
    "grep --color=auto -n demo README.md",
    "diff README.md src/a.py",
    "diff -u src src",
    "sed -n 1p -- README.md src/a.py",
    "git --no-pager log --oneline -5",
    "git --no-pager diff",
    "git -P show HEAD",
    "git --no-optional-locks status --short",
]


@pytest.mark.parametrize("command", STAYS_ALLOWED)
def test_stays_allowed(layout: Layout, command: str) -> None:
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "allow", (command, verdict.reason)


def test_bash_quoting_is_read_by_the_red_line() -> None:
    root, home = Path("/nonexistent-kesi/home/a/p"), Path("/nonexistent-kesi/home/a")
    for command in ("$'sudo' ls", "$'\\x73udo' id", "$'\\163udo' id", 'RM $"-rf" /'):
        assert classify(command, root, home).kind == "deny", command
