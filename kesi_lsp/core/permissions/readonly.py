"""The read-only programs that run without asking, and what would make each more than that.

The seed's list (Day 14: `ls pwd cat head tail wc echo which diff stat du date`) is widened to
what people expect to run freely (design §3): `grep`, `rg`, `find`, `sed -n`, `nl`, `tac`,
`sort`, `uniq`, `cut`, `cmp`, `comm`, checksums, `whoami`, `uname`, `true`, `file`, `tree`,
`python --version` (`policy.py`), ... Each one with
the options that write, run programs, change the system or never end taken out
(`sort -o`, `rg --pre`, `find -exec`/`-delete`/`-fprint`, `sed -i`/`w`/`e`, `tail -f`,
`date -s`), and every word that may name a file checked against the fence and the ignore
list: operands, `--opt=value`, the value after an option that takes one, and values glued to
short options (`date -f.env`, where the seed saw only `-f.env`).

`read_arguments` turns one simple command into the words to check, or the reason to ask.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from kesi_lsp.core.permissions.sedscript import print_only

Operands = Literal["paths", "none", "pattern_then_paths", "script_then_paths", "date_format"]


@dataclass(frozen=True)
class Program:
    """How a read-only program takes its arguments, and which of them make it more."""

    values: frozenset[str] = frozenset()
    """Options that take a value (the next word, or glued: `-n5`, `--lines=5`)."""
    not_paths: frozenset[str] = frozenset()
    """Of those, the ones whose value is a pattern or a format, never a file."""
    glued: frozenset[str] = frozenset()
    """Short options whose (optional) value can only be glued (`date -Iseconds`): the next word
    is not theirs, and the letters after them are not options."""
    refused: frozenset[str] = frozenset()
    """Options (short `-x` or long `--name`, unique prefixes count) that make it more."""
    refusal: str = "permissions.reason.option_not_read_only"
    recursive: frozenset[str] = frozenset()
    """Options that make it read the contents of folders."""
    reads_folders: bool = False
    """It reads the files inside a folder it is given even without an option (`diff -N src .`
    prints `./.env`): every path it is given is folder-checked."""
    operands: Operands = "paths"
    default_operand: str | None = None
    max_operands: int | None = None
    hidden_skipped: bool = False
    """ripgrep skips hidden files unless `-.`, `--hidden` or `-u` say otherwise."""


def _set(names: str) -> frozenset[str]:
    return frozenset(names.split())


_GREP_VALUES = _set(
    "-e --regexp -f --file -m --max-count -A --after-context -B --before-context -C --context "
    "-d --directories -D --devices --label --include --exclude --exclude-from --exclude-dir "
    "--binary-files --group-separator"
)
_RG_VALUES = _set(
    "-e --regexp -f --file -g --glob --iglob -t --type -T --type-not -m --max-count -A "
    "--after-context -B --before-context -C --context -M --max-columns -d --max-depth -j "
    "--threads -r --replace --sort --sortr --type-add --type-clear --ignore-file --colors "
    "--color -E --encoding --path-separator --max-filesize --engine --context-separator"
)
_PATTERNS = _set("-e --regexp -g --glob --iglob -t --type -T --type-not -r --replace --type-add")
_FILES_FROM = _set("--files0-from")
_CHECKS = _set("-c --check")
"""`md5sum -c LIST` reads the files LIST names (names the policy never sees)."""
"""Reads the names of the files to read from another file: names the policy never sees."""
RG_REVEALING: Final = _set("-g --glob --iglob --type-add")
"""ripgrep options whose globs can make it search a hidden file it would otherwise skip."""

PROGRAMS: Final[dict[str, Program]] = {
    "ls": Program(values=_set("-I --ignore -w --width -T --tabsize --hide --block-size")),
    "pwd": Program(operands="none"),
    "cat": Program(),
    "head": Program(values=_set("-n --lines -c --bytes")),
    "tail": Program(
        values=_set("-n --lines -c --bytes --pid -s --sleep-interval"),
        refused=_set("-f -F --follow --retry"),
        refusal="permissions.reason.never_ends",
    ),
    "wc": Program(refused=_FILES_FROM),
    "echo": Program(operands="none"),
    "printf": Program(operands="none"),
    "which": Program(operands="none"),
    "diff": Program(
        values=_set("--from-file --to-file -x --exclude -X --exclude-from -I -F -D --label"),
        not_paths=_set("-x --exclude -I -F -D --label"),
        reads_folders=True,
    ),
    "stat": Program(
        values=_set("-c --format --printf --cached"),
        not_paths=_set("-c --format --printf --cached"),
    ),
    "file": Program(  # file 5.44 --help: -C writes magic.mgc, -z/-Z may start decompressors,
        # -S turns its seccomp sandbox off, -p resets access times, -f reads unseen names
        values=_set("-m --magic-file -e --exclude --exclude-quiet -F --separator -P --parameter"),
        not_paths=_set("-e --exclude --exclude-quiet -F --separator -P --parameter"),
        refused=_set("-C --compile -z --uncompress -Z --uncompress-noreport -S --no-sandbox")
        | _set("-p --preserve-date -f --files-from"),
    ),
    "tree": Program(  # tree 2.1 --help: -o writes, -R reruns with `-o 00Tree.html`, --fromfile
        # prints its operands' lines, -l follows symlinks out of the workspace
        values=_set("-L -H -T -P -I --gitfile --hintro --houtro --sort --charset --timefmt")
        | _set("--filelimit --infofile"),
        not_paths=_set("-L -H -T -P -I --sort --charset --timefmt --filelimit"),
        refused=_set("-o -R --fromfile --fflinks -l"),
    ),
    "du": Program(
        values=_set("-d --max-depth -B --block-size -t --threshold -X --exclude-from"),
        refused=_FILES_FROM,
    ),
    "date": Program(  # `-I[FMT]` takes its value only glued, like `--iso-8601[=FMT]`
        values=_set("-d --date -f --file -r --reference --rfc-3339"),
        not_paths=_set("-d --date --rfc-3339"),
        glued=_set("-I"),
        refused=_set("-s --set"),
        refusal="permissions.reason.changes_system",
        operands="date_format",
    ),
    "nl": Program(values=_set("-b -d -f -h -i -l -n -s -v -w")),
    "tac": Program(values=_set("-s --separator"), not_paths=_set("-s --separator")),
    "sort": Program(
        values=_set("-k --key -t --field-separator -S --buffer-size"),
        not_paths=_set("-k --key -t --field-separator -S --buffer-size"),
        refused=_set("-o --output --compress-program -T --temporary-directory") | _FILES_FROM,
    ),
    "uniq": Program(values=_set("-f -s -w"), not_paths=_set("-f -s -w"), max_operands=1),
    "cut": Program(values=_set("-b -c -d -f --output-delimiter"), not_paths=_set("-b -c -d -f")),
    "cmp": Program(values=_set("-i -n --bytes --ignore-initial")),
    "comm": Program(),
    "md5sum": Program(refused=_CHECKS),
    "sha1sum": Program(refused=_CHECKS),
    "sha256sum": Program(refused=_CHECKS),
    "sha512sum": Program(refused=_CHECKS),
    "basename": Program(operands="none"),
    "dirname": Program(operands="none"),
    "realpath": Program(),
    "readlink": Program(),
    "whoami": Program(operands="none"),
    "uname": Program(operands="none"),
    "id": Program(operands="none"),
    "true": Program(operands="none"),
    "grep": Program(
        values=_GREP_VALUES,
        not_paths=_PATTERNS | _set("-m --max-count -A -B -C --context -d -D --label"),
        recursive=_set("-r -R --recursive --dereference-recursive"),
        operands="pattern_then_paths",
    ),
    "rg": Program(
        values=_RG_VALUES,
        not_paths=_PATTERNS | _set("-m -A -B -C -M -d -j --sort --sortr --colors --color -E"),
        refused=_set("--pre --pre-glob -z --search-zip --hostname-bin"),
        reads_folders=True,
        operands="pattern_then_paths",
        default_operand=".",
        hidden_skipped=True,
    ),
    "sed": Program(
        values=_set("-e --expression -f --file -l --line-length"),
        not_paths=_set("-e --expression -l --line-length"),
        refused=_set("-i --in-place -f --file"),
        operands="script_then_paths",
    ),
}


@dataclass
class Arguments:
    """One command's words as the policy checks them."""

    paths: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    """Operands whose contents the program reads if they are folders."""
    hidden_ok: bool = False
    reveals: list[str] = field(default_factory=list)
    """Globs that make ripgrep search hidden files it would skip (`-g .env`)."""
    ignore_files: list[str] = field(default_factory=list)
    """`rg --ignore-file F`: its `!` lines may do the same."""
    revisions: list[str] = field(default_factory=list)
    """git revisions that must not name a stored file (`git show <blob id>`)."""
    question: tuple[str, str] | None = None
    """(catalog key, the option) when the command is not read-only."""


def _matches(option: str, names: frozenset[str]) -> str | None:
    """The name in `names` that `option` spells (exact, or a unique long prefix).

    getopt_long takes any unambiguous prefix, one letter included: `sed --i` is `--in-place`,
    `sort --o=x` is `--output=x`.
    """
    if option in names:
        return option
    if option.startswith("--") and len(option) >= 3:
        found = [name for name in names if name.startswith(option)]
        return found[0] if len(found) == 1 else None
    return None


@dataclass
class _Reading:
    """What `read_arguments` has learnt so far about one command."""

    result: Arguments
    recursive: bool
    operands: list[str] = field(default_factory=list)
    pattern_given: bool = False
    names_only: bool = False
    parse_only: bool = False
    """BSD `date -j`: the operand is a date to read, not one to set."""
    strict_scripts: bool = False
    """sed cannot be run with `--sandbox`: its scripts are read strictly (`sedscript.py`)."""


def read_arguments(name: str, args: list[str], *, strict_scripts: bool = False) -> Arguments:
    """Read `args` of the read-only program `name` (which must be in PROGRAMS).

    `strict_scripts`: the sed that would run cannot take `--sandbox` (`sedrun.py`).
    """
    program = PROGRAMS[name]
    state = _Reading(Arguments(hidden_ok=program.hidden_skipped), program.reads_folders)
    state.strict_scripts = strict_scripts
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            state.operands += args[index:]
            break
        if not word.startswith("-") or word == "-" or _number(word):
            state.operands.append(word)
            continue
        for option, value in split_options(word, program):
            following = args[index] if index < len(args) else None
            taken = _option(name, program, option, value, following, state)
            if state.result.question is not None:
                return state.result
            index += taken
        state.result.paths += _glued_suffixes(word)
    return _operands(name, program, state)


def _option(
    name: str,
    program: Program,
    option: str,
    value: str | None,
    following: str | None,
    state: _Reading,
) -> int:
    """Judge one option; return how many of the following words it took as its value."""
    result = state.result
    if _matches(option, program.refused):
        result.question = (program.refusal, option)
        return 0
    if option in ("-.", "--hidden", "-u", "--unrestricted", "--no-ignore-dot"):
        result.hidden_ok = False
    if name == "date" and option == "-j":
        state.parse_only = True
    if name == "rg" and option in ("--files", "--type-list"):
        state.pattern_given = state.names_only = True  # names only, no pattern operand
    known = _matches(option, program.values)
    taken = 0
    if known is not None and value is None and following is not None:
        value, taken = following, 1
    if _matches(option, program.recursive) or _recurse_value(known, value):
        state.recursive = True
    if known in ("-e", "--regexp", "-f", "--file", "--expression"):
        state.pattern_given = True
        script = known in ("-e", "--expression") and value is not None
        if name == "sed" and script and not print_only(value or "", strict=state.strict_scripts):
            result.question = ("permissions.reason.option_not_read_only", "sed")
    if name == "rg" and value is not None:
        if known in RG_REVEALING:
            result.reveals.append(value.split(":", 1)[1] if known == "--type-add" else value)
        elif known == "--ignore-file":
            result.ignore_files.append(value)
    exempt = known in program.not_paths and not state.operands
    if value is not None and option not in program.glued and not exempt:
        result.paths.append(value)
    return taken


def _number(word: str) -> bool:
    return word[1:].isdigit()  # `head -5`, `tail -20`


def _recurse_value(known: str | None, value: str | None) -> bool:
    return known in ("-d", "--directories") and value == "recurse"  # `--dir=recurse` too


def split_options(word: str, program: Program) -> list[tuple[str, str | None]]:
    """`--name=value` → [(--name, value)]; `-abc5` → [(-a, None), (-b, None), (-c, "5")] when
    `-c` takes a value."""
    if word.startswith("--"):
        option, eq, value = word.partition("=")
        return [(option, value if eq else None)]
    found: list[tuple[str, str | None]] = []
    for position, letter in enumerate(word[1:], start=1):
        option = "-" + letter
        if option in program.values or option in program.glued:
            rest = word[position + 1 :]
            found.append((option, rest or None))
            return found
        found.append((option, None))
    return found


def _glued_suffixes(word: str) -> list[str]:
    """Every tail of a short-option cluster, so a value glued to any letter is checked."""
    if word.startswith("--"):
        return []
    return [word[i:] for i in range(2, len(word))]


def _operands(name: str, program: Program, state: _Reading) -> Arguments:
    result, operands = state.result, state.operands
    if program.operands == "none":
        return result
    if program.operands == "date_format":
        # `date MMDDhhmm` sets the clock: only `+FORMAT` is read-only.
        setting = next((word for word in operands if not word.startswith("+")), None)
        if setting is not None and not state.parse_only:
            result.question = (program.refusal, setting)
        return result
    if program.operands == "pattern_then_paths" and not state.pattern_given and operands:
        operands = operands[1:]
    if program.operands == "script_then_paths" and not state.pattern_given:
        if not operands or not print_only(operands[0], strict=state.strict_scripts):
            result.question = ("permissions.reason.option_not_read_only", name)
            return result
        operands = operands[1:]
    if program.max_operands is not None and len(operands) > program.max_operands:
        result.question = ("permissions.reason.option_not_read_only", name)
        return result
    recursive = state.recursive and not state.names_only
    if recursive and not operands:
        operands = [program.default_operand or "."]
    result.paths += operands
    if recursive:  # option values too: `diff --from-file=. src` reads the folder `.`
        result.folders += result.paths
    return result


FIND_REFUSED: Final = _set(
    "-exec -execdir -ok -okdir -delete -fprint -fprint0 -fprintf -fls -files0-from"
)
"""`-files0-from LIST` takes its starting points from LIST: names the policy never sees."""
FIND_PATH_VALUES: Final = _set("-newer -anewer -cnewer -samefile")
FIND_LEADING: Final = _set("-H -L -P -E -X -d -s -x")
"""Options before the starting points: GNU's, and BSD/macOS find's (`-E`, `-X`, `-s`, `-x`,
`-d`); `-D DEBUG` and `-f PATH` (BSD: one more starting point) take a word, `-O3` none."""


def find_arguments(args: list[str]) -> Arguments:
    """`find [-H|-L|-P] [START...] [EXPRESSION]`: starts are paths, and the expression may not
    run, delete or write (`-exec`, `-delete`, `-fprint`); it prints names, never contents."""
    result = Arguments()
    index = 0
    starts: list[str] = []
    while index < len(args):
        word = args[index]
        if word in ("-D", "-f") and index + 1 < len(args):
            starts += [args[index + 1]] if word == "-f" else []
            index += 2
        elif word in FIND_LEADING or (word.startswith("-O") and word[2:].isdigit()):
            index += 1
        else:
            break
    while index < len(args) and not _find_expression(args[index]):
        starts.append(args[index])
        index += 1
    expression = args[index:]
    for position, word in enumerate(expression):
        if word in FIND_REFUSED:
            result.question = ("permissions.reason.option_not_read_only", word)
            return result
        if (word in FIND_PATH_VALUES or word.startswith("-newer")) and position + 1 < len(
            expression
        ):
            result.paths.append(expression[position + 1])
    result.paths += starts or ["."]
    return result


def _find_expression(word: str) -> bool:
    return (word.startswith("-") and word != "-") or word in ("(", "!", ",", ")")
