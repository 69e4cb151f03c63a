"""How an allowed read-only git runs: with the programs git's configuration names turned off.

Plain `git status` runs `core.fsmonitor`, plain `git diff` runs `diff.external` and textconv
drivers, both run the clean filters of `.gitattributes` (`filter.<name>.clean`), a partial clone
fetches missing objects through `core.sshCommand` or `remote.<name>.uploadpack`, a signature
check in a configured log format runs `gpg.program`, and a submodule's own git runs with the
submodule's own config: one write to `.git/config` or `~/.gitconfig` would turn every
"read-only" git into code execution. So the command the policy allows runs as (and the user
and the model are shown):

    git --no-pager --no-optional-locks -c core.fsmonitor=false -c core.hooksPath=/dev/null
        -c log.showSignature=false -c safe.bareRepository=explicit -c protocol.allow=never
        -c gpg.program=/dev/null -c gpg.openpgp.program=/dev/null (x509, ssh: the same)
        -c protocol.<name>.allow=never ... -c diff.submodule=short
        -c status.submoduleSummary=false [-c filter.<name>.clean= ...]
        diff --no-ext-diff --no-textconv --ignore-submodules=dirty ...
        -- ':(exclude,glob,icase)**/.env' ':(exclude,glob,icase)**/.env/**' ...

`--no-optional-locks` keeps `git status` from writing the index (and the hook that follows);
`--ignore-submodules=dirty` keeps status and diff from starting git inside submodules;
`safe.bareRepository=explicit` keeps a bare repository hidden in the workspace (its `config` an
ordinary file) from being used. Patches (`diff`, `show`, `log` with any option that may show
changes) also leave out every committed file under an ignore-listed name, at any depth, as a
file or a folder (`config/.env/key.txt`, `node_modules/pkg/.npmrc`, `.env.local`), which the
sandbox cannot mask because they live in `.git`'s objects.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from kesi_lsp.core.paths import IGNORED_NAMES, IGNORED_PREFIX
from kesi_lsp.core.permissions.gitconfig import configured
from kesi_lsp.core.permissions.gitsafe import command_words, in_work_tree

GPG_KINDS: Final = ("", ".openpgp", ".x509", ".ssh")
"""Signature checks run `gpg.program` (or its x509/ssh kin): `%G?` in a `pretty.<alias>` or in
`format.pretty` from the config reaches them on plain `git log`. `/dev/null` cannot run."""
NEUTRAL: Final = (
    "--no-pager",
    "--no-optional-locks",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "log.showSignature=false",
    "-c",
    "safe.bareRepository=explicit",
    "-c",
    "protocol.allow=never",
    *(item for kind in GPG_KINDS for item in ("-c", f"gpg{kind}.program=/dev/null")),
)
SUBMODULES_QUIET: Final = ("-c", "diff.submodule=short", "-c", "status.submoduleSummary=false")
SECRET_PATHSPECS: Final = tuple(
    f":(exclude,glob,icase)**/{name}{tail}"
    for name in (*sorted(IGNORED_NAMES), f"{IGNORED_PREFIX}*")
    for tail in ("", "/**")
)
"""Every ignore-listed name at any depth, as a file (`**/NAME`) and as a folder (`**/NAME/**`:
git's glob magic matches whole paths, so the folder's own name does not exclude what is in it),
without case like the fence (`paths.py`)."""
LOG_NAMES_ONLY: Final = frozenset(
    " ".join(
        (
            "--oneline --graph --decorate --decorate-refs --decorate-refs-exclude --no-decorate",
            "--clear-decorations --all --branches --tags --remotes --glob --exclude --reflog -g",
            "--walk-reflogs --format --pretty --abbrev-commit --no-abbrev-commit --abbrev",
            "--no-abbrev --date --relative-date --stat --shortstat --numstat --summary",
            "--compact-summary --name-only --name-status --dirstat --author --committer --grep",
            "--invert-grep --all-match -i --regexp-ignore-case -E --extended-regexp -F",
            "--fixed-strings --basic-regexp --since --after --until --before --since-as-filter",
            "--max-count -n --skip --merges --no-merges --min-parents --max-parents",
            "--first-parent --ancestry-path --reverse --topo-order --date-order",
            "--author-date-order --follow --no-patch -s --color --no-color --left-right",
            "--boundary --cherry-pick --cherry-mark --cherry --simplify-by-decoration",
            "--full-history --dense --sparse --simplify-merges --show-pulls --source",
            "--use-mailmap --mailmap --no-mailmap --encoding --expand-tabs --no-expand-tabs",
            "--notes --no-notes --show-notes --parents --children --no-walk --do-walk --not",
            "--log-size -z --no-renames --find-renames --diff-filter --relative --no-relative",
            "--stat-width --stat-count --stat-name-width --stat-graph-width -L",
        )
    ).split()
)
"""`git log` options that cannot show what changed inside files (`-L` takes no pathspec, and its
path is checked). Any other option may (`-c`, `--cc`, `-m`, `--binary`, `--raw` blob ids,
`-S` searches): then the committed secrets are left out."""


def neutralized(tokens: list[str], root: Path, home: Path) -> list[str]:
    """The git command that actually runs for an allowed `tokens` (see the module text)."""
    words = command_words(tokens)
    sub, args = words[1], words[2:]
    names = configured(root, home)
    run = ["git", *NEUTRAL]
    for protocol in sorted(names.protocols):  # `protocol.allow=never` covers the others
        run += ["-c", f"protocol.{protocol}.allow=never"]
    run += SUBMODULES_QUIET
    for name in sorted(name for name in names.filters if name):
        run += [
            item
            for key in ("clean", "smudge", "process")
            for item in ("-c", f"filter.{name}.{key}=")
        ]
    run.append(sub)
    if sub in ("diff", "log", "show"):
        run += ["--no-ext-diff", "--no-textconv"]
    if sub in ("status", "diff"):
        run.append("--ignore-submodules=dirty")
    if not prints_patches(sub, args) or (sub == "diff" and not in_work_tree(root)):
        return [*run, *args]
    if "--" in args:
        return [*run, *args, *SECRET_PATHSPECS]
    paths = [w for w in args if not w.startswith("-") and (root / w).exists()]
    kept = [w for w in args if w not in paths]
    return [*run, *kept, "--", *paths, *SECRET_PATHSPECS]


def prints_patches(sub: str, args: list[str]) -> bool:
    """Whether `git SUB ARGS` may print changes inside files (then secrets are excluded)."""
    if sub in ("diff", "show"):
        return "--no-index" not in args
    if sub != "log":
        return False
    options = [w for w in args[: args.index("--") if "--" in args else len(args)] if w[:1] == "-"]
    return any(not _names_only(option) for option in options)


def _names_only(option: str) -> bool:
    flag = option.split("=", 1)[0]
    if flag in LOG_NAMES_ONLY or flag[1:].isdigit():  # `-5`
        return True
    return flag[:2] in ("-n", "-L") and not flag.startswith("--")  # `-n5`, `-L1,1:f`
