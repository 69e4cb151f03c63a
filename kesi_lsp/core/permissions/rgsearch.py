"""What ripgrep will really search in a folder, asked of ripgrep itself (issue 24 item 4).

`rg PATTERN` reads every file under `.` that its ignore rules keep: `.gitignore` (inside a git
repository), `.ignore`, `.rgignore`, `.git/info/exclude`, the parents' ignore files, hidden
entries skipped, `!` lines that whitelist again, and the options that change all that (`-u`,
`--no-ignore*`, `--hidden`, `-g`, `-t`, `--ignore-file`, `-L`, `--max-depth`...). Rather than
copy those rules (the policy's own walk in `pathcheck.py` only knows the hidden-file one, so a
`node_modules` listed in `.gitignore` made every `rg` ask), the policy runs

    rg --files --no-config [the command's options that choose files] --no-ignore-global -- FOLDER...

which lists exactly the files that search would read (the same program, the same grammar), and
asks when one of them is closed to the tools. The allowed command then runs with `--no-config`
too (`policy._neutralized`), so a `RIPGREP_CONFIG_PATH` cannot add options the listing did not
have; `--no-ignore-global` only makes the listing longer than the search (the global excludes
file depends on the environment the command gets).

Any option this module does not know, a ripgrep that is missing or too slow, or a listing
longer than `MAX_FILES`: `None`, and the policy falls back to its own walk (which may only ask
more often).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from kesi_lsp.core.permissions.pathcheck import touches_forbidden
from kesi_lsp.core.permissions.readonly import PROGRAMS, split_options
from kesi_lsp.core.permissions.removal import Places


def _set(names: str) -> frozenset[str]:
    return frozenset(names.split())


CHOOSE_FILES: Final = _set(
    "-. --hidden --no-hidden -u --unrestricted --no-ignore --ignore --no-ignore-dot --ignore-dot "
    "--no-ignore-exclude --ignore-exclude --no-ignore-files --ignore-files --no-ignore-global "
    "--ignore-global --no-ignore-parent --ignore-parent --no-ignore-vcs --ignore-vcs "
    "--no-require-git --require-git -L --follow --no-follow --one-file-system "
    "--no-one-file-system --glob-case-insensitive --no-glob-case-insensitive "
    "--ignore-file-case-insensitive --no-ignore-file-case-insensitive"
)
"""Options without a value that change which files are searched: passed to the listing."""
CHOOSE_FILES_VALUES: Final = _set(
    "-g --glob --iglob -t --type -T --type-not --type-add --type-clear --ignore-file -d "
    "--max-depth --max-filesize"
)
"""Options with a value that change which files are searched: passed with their value."""
SEARCH_ONLY: Final = _set(
    "-i --ignore-case -S --smart-case -s --case-sensitive -w --word-regexp -x --line-regexp -F "
    "--fixed-strings -v --invert-match -c --count --count-matches -l --files-with-matches "
    "--files-without-match -n --line-number -N --no-line-number -H --with-filename -I "
    "--no-filename -o --only-matching -p --pretty -0 --null -b --byte-offset -q --quiet -U "
    "--multiline --multiline-dotall -P --pcre2 --no-pcre2 -a --text --binary --no-binary "
    "--column --no-column --heading --no-heading --json --no-json --vimgrep --trim --no-trim "
    "--stats --passthru --passthrough --crlf --no-crlf --null-data --no-unicode --unicode "
    "--mmap --no-mmap --line-buffered --block-buffered --no-messages --no-ignore-messages "
    "--debug --trace --sort-files --auto-hybrid-regex --no-auto-hybrid-regex "
    "--no-pcre2-unicode --max-columns-preview --no-max-columns-preview --include-zero "
    "--no-include-zero --no-config -e --regexp -f --file -m --max-count -A --after-context -B "
    "--before-context -C --context -M --max-columns -r --replace -j --threads --sort --sortr "
    "--colors --color -E --encoding --path-separator --engine --context-separator "
    "--field-context-separator --field-match-separator --dfa-size-limit --regex-size-limit"
)
"""Options that change how files are searched or shown, not which: left out of the listing."""
MAX_FILES: Final = 50_000
SECONDS: Final = 5.0


def listing_command(rg: str, args: Sequence[str], folders: Sequence[str]) -> list[str] | None:
    """The `rg --files` command that lists what `rg ARGS` searches in `folders`, or None when
    an option is not one this module knows."""
    program = PROGRAMS["rg"]
    chosen: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            break
        if not word.startswith("-") or word == "-":
            continue
        for option, value in split_options(word, program):
            known = option if option in program.values else None
            if known is not None and value is None:
                if index >= len(args):
                    return None
                value = args[index]
                index += 1
            if option in CHOOSE_FILES:
                chosen.append(option)
            elif option in CHOOSE_FILES_VALUES and value is not None:
                chosen.append(f"{option}={value}" if option.startswith("--") else option + value)
            elif option not in SEARCH_ONLY:
                return None
    return [rg, "--files", "--no-config", *chosen, "--no-ignore-global", "--null", "--", *folders]


def closed_folder(args: Sequence[str], folders: Sequence[str], places: Places) -> str | None:
    """The first of `folders` in which `rg ARGS` would read a file closed to the tools; "" when
    it reads none; None when ripgrep could not say (see the module text)."""
    rg = shutil.which("rg")
    if rg is None or not folders:
        return None
    command = listing_command(rg, args, folders)
    if command is None:
        return None
    try:
        done = subprocess.run(
            command,
            cwd=places.root,
            env={},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode not in (0, 1):
        return None
    names = [name for name in done.stdout.decode("utf-8", "surrogateescape").split("\0") if name]
    if len(names) > MAX_FILES:
        return None
    for name in names:
        if touches_forbidden(name, places):
            return _folder_of(name, folders, places.root)
    return ""


def _folder_of(name: str, folders: Sequence[str], root: Path) -> str:
    path = (root / name).absolute()
    for folder in folders:
        if path.is_relative_to((root / folder).absolute()):
            return folder
    return folders[0]
