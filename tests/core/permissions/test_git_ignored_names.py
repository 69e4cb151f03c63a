"""Auto-allowed git prints no committed file under an ignore-listed name (issue 24 item 2).

`.git/objects` must stay readable for git to work, so the sandbox cannot mask a committed
`config/.env/key.txt` or `node_modules/pkg/.npmrc`: the command that runs carries pathspec
exclusions for every ignore-listed name, at any depth, as a file and as a folder. The repository
here commits a distinct secret under each name (`.git` itself cannot be committed: git refuses
the name), runs what the policy allows for real, and looks for every secret in the output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core.paths import IGNORED_NAMES
from kesi_lsp.core.permissions import classify
from tests.core.permissions.gitrepo import git, run

NAMES = sorted((IGNORED_NAMES - {".git"}) | {".env.local"})
PLACES = ("", "deep/er/")


def secret_paths() -> dict[str, str]:
    """Path -> its secret: each name at the top and deeper, as a file and as a folder."""
    found: dict[str, str] = {}
    for where in PLACES:
        for name in NAMES:
            label = f"{where}{name}".replace("/", "_")
            found[f"{where}{name}"] = f"SECRET-file-{label}"
            found[f"{where}{name}/inner/key.txt"] = f"SECRET-folder-{label}"
    found["src/Node_Modules/pkg/.npmrc"] = "SECRET-case-node"  # without case, like the fence
    return found


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One repository for the module: its ~60 git commands cost seconds, and no test writes."""
    root = tmp_path_factory.mktemp("git-ignored") / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "deep").mkdir()
    (root / "deep" / "code.py").write_text("x = 1\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "code")
    files = secret_paths()
    for folders in (False, True):  # `NAME` as a file and `NAME/inner` cannot share a commit
        if folders:
            git(root, "rm", "-rq", "--", *(p for p in files if "/inner/" not in p))
        for path, secret in files.items():
            if ("/inner/" in path) == folders:
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(secret + "\n")
                git(root, "add", "-f", path)
        git(root, "commit", "-qm", "folders" if folders else "files")
    (root / "deep" / "code.py").write_text("x = 2\n")
    git(root, "add", "deep/code.py")
    git(root, "commit", "-qm", "visible change")
    return root


def committed_secrets(root: Path) -> set[str]:
    everything = run("git log -p --all", root)
    return {secret for secret in secret_paths().values() if secret in everything}


COMMANDS = [
    "git log -p",
    "git log -p --all",
    "git log --all -p deep",
    "git log -p -- deep",
    "git log --stat -p -3",
    "git show",
    "git show HEAD~1 HEAD~2",
    "git show --all",
    "git diff HEAD~3 HEAD",
    "git diff HEAD~2 HEAD~1",
    "git diff HEAD~3 -- deep",
    "git diff --cached HEAD~2",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_no_committed_file_under_an_ignored_name_is_printed(repo: Path, command: str) -> None:
    secrets = committed_secrets(repo)
    assert len(secrets) == len(secret_paths()), "the repository holds the secrets"
    verdict = classify(command, repo, repo.parent)
    assert verdict.kind == "allow", verdict.reason
    assert verdict.command is not None
    output = run(verdict.command, repo)
    assert "fatal" not in output, output
    printed = sorted(secret for secret in secrets if secret in output)
    assert printed == [], (verdict.command, printed)


def test_what_is_not_closed_is_still_printed(repo: Path) -> None:
    verdict = classify("git log -p --all deep", repo, repo.parent)
    assert verdict.command is not None
    assert "+x = 2" in run(verdict.command, repo)
    shown = classify("git show", repo, repo.parent)
    assert shown.command is not None and "+x = 2" in run(shown.command, repo)
