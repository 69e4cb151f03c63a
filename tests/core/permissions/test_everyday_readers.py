"""Everyday commands that asked for no reason (issue 24 item 4).

ripgrep is judged by what it will really search: a `node_modules` that `.gitignore` lists is not
searched, so `rg PATTERN` runs without asking; every way to make ripgrep search it after all
(`-u`, `--no-ignore*`, a `!` line in `.ignore`/`.rgignore`/an `--ignore-file`, a config file)
still asks, or cannot take effect. Each allowed command is run for real, as the policy lets it
run, and prints no secret; each asked one, run as written, does print it (so asking was right).

And the plain read-only forms of `python --version`, `file` and `tree`, with the options their
`--help` names as writing, running programs or reading names the policy cannot see refused.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from kesi_lsp.core.permissions import classify
from tests.core.permissions.conftest import Layout
from tests.core.permissions.gitrepo import git

SECRET = "SECRET-in-node-modules"
needs_rg = pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = (tmp_path / "proj").resolve()
    (root / "node_modules" / "pkg").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "node_modules" / "pkg" / "index.js").write_text(f"const KEY = '{SECRET}'\n")
    (root / "src" / "app.py").write_text("KEY = 'visible'\n")
    (root / ".gitignore").write_text("node_modules/\n")
    (root / ".env").write_text(f"KEY={SECRET}\n")
    git(root, "init", "-q")
    return root


def run(command: str, root: Path, **env: str) -> str:
    done = subprocess.run(
        command,
        shell=True,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": os.environ["PATH"], **env},
    )
    return done.stdout + done.stderr


ALLOWED = [
    "rg KEY",
    "rg KEY .",
    "rg -n -i key",
    "rg -e KEY -e const src .",
    "rg --sort=path -C1 KEY",
    "rg -g '*.js' KEY",
    "rg -g node_modules KEY",  # a glob that whitelists the folder's name: rg still skips it
    "rg -t js KEY",
    "rg --max-depth 5 KEY",
    "rg -w KEY src",
]


@needs_rg
@pytest.mark.parametrize("command", ALLOWED)
def test_rg_runs_where_its_ignore_rules_keep_secrets_out(project: Path, command: str) -> None:
    verdict = classify(command, project, project.parent)
    assert verdict.kind == "allow", verdict.reason
    assert verdict.command is not None
    assert SECRET not in run(verdict.command, project)


ASKED = [
    "rg -u KEY",
    "rg -uu KEY",
    "rg --unrestricted KEY",
    "rg --no-ignore KEY",
    "rg --no-ignore-vcs KEY",
    "rg --no-require-git --no-ignore-vcs KEY",
    "rg --hidden KEY",
    "rg -. KEY",
    "rg -g '!nothing' --no-ignore KEY",
]


@needs_rg
@pytest.mark.parametrize("command", ASKED)
def test_rg_that_would_search_the_ignored_folder_asks(project: Path, command: str) -> None:
    verdict = classify(command, project, project.parent)
    assert verdict.kind == "ask"
    assert "holds files closed to the tools" in verdict.reason
    assert SECRET in run(command, project)


@needs_rg
@pytest.mark.parametrize(
    ("ignore_file", "line"),
    [(".ignore", "!node_modules/"), (".rgignore", "!node_modules"), ("src/../.ignore", "!*")],
)
def test_a_whitelist_line_in_an_ignore_file_asks(
    project: Path, ignore_file: str, line: str
) -> None:
    (project / ignore_file).write_text(line + "\n")
    verdict = classify("rg KEY", project, project.parent)
    assert verdict.kind == "ask", verdict.reason
    assert SECRET in run("rg KEY", project)


@needs_rg
def test_an_ignore_file_given_on_the_command_line_counts_as_rg_counts_it(project: Path) -> None:
    """`--ignore-file` ranks below `.gitignore` (rg's own precedence): its `!` line does not
    bring the folder back, and the policy's walk (which asked) no longer decides alone; with
    the folder's own rule gone it does bring it back."""
    (project / "extra.ignore").write_text("!node_modules/\n")
    command = "rg --ignore-file extra.ignore KEY"
    verdict = classify(command, project, project.parent)
    assert verdict.kind == "allow" and verdict.command is not None
    assert SECRET not in run(verdict.command, project)
    (project / ".gitignore").write_text("")
    (project / "extra.ignore").write_text("node_modules/\n")
    (project / ".ignore").write_text("!node_modules/\n")
    assert classify(command, project, project.parent).kind == "ask"
    assert SECRET in run(command, project)


@needs_rg
def test_a_config_file_in_the_environment_cannot_add_options(project: Path) -> None:
    config = project.parent / "ripgreprc"
    config.write_text("--no-ignore\n--hidden\n")
    assert SECRET in run("rg KEY", project, RIPGREP_CONFIG_PATH=str(config))
    verdict = classify("rg KEY", project, project.parent)
    assert verdict.command is not None and "--no-config" in verdict.command
    assert SECRET not in run(verdict.command, project, RIPGREP_CONFIG_PATH=str(config))


@needs_rg
def test_outside_a_git_repository_gitignore_does_not_count(project: Path) -> None:
    """ripgrep reads `.gitignore` only inside a repository: there it searches node_modules."""
    shutil.rmtree(project / ".git")
    assert SECRET in run("rg KEY", project)
    assert classify("rg KEY", project, project.parent).kind == "ask"


@needs_rg
def test_a_followed_symlink_out_of_the_workspace_asks(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"KEY={SECRET}\n")
    (project / "src" / "link").symlink_to(outside)
    assert classify("rg KEY", project, project.parent).kind == "allow"  # rg does not follow it
    assert classify("rg -L KEY", project, project.parent).kind == "ask"
    assert SECRET in run("rg -L KEY", project)


READ_ONLY_FORMS = [
    "python --version",
    "python3 -V",
    "python3.12 -VV",
    "file README.md",
    "file -b --mime-type README.md src/a.py",
    "file -L inner-link",
    "file -e elf -F : README.md",
    "tree",
    "tree -a -L 2 src",
    "tree -d --noreport",
    "tree -I node_modules -P '*.py' --dirsfirst",
    "tree -J src",
    "stat README.md",
    "stat -c %s README.md",
    "stat --cached=never README.md",
]


@pytest.mark.parametrize("command", READ_ONLY_FORMS)
def test_plain_read_only_forms_run_without_asking(layout: Layout, command: str) -> None:
    (layout.root / ".venv" / "bin" / "python").unlink()  # no workspace python in front
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "allow", verdict.reason


NOT_READ_ONLY = {
    "python -c 'print(1)'": "not on the read-only list",
    "python --version -c 'print(1)'": "not on the read-only list",
    "python3 -m http.server": "not on the read-only list",
    "file -C -m magic": "-C writes files",
    "file --compile -m magic": "--compile writes files",
    "file -z archive.gz": "-z writes files",
    "file -Z archive.gz": "-Z writes files",
    "file -S README.md": "-S writes files",
    "file --no-sand README.md": "--no-sand writes files",
    "file -p README.md": "-p writes files",
    "file -f names.txt": "-f writes files",
    "file .env": "closed to the tools",
    "file -m .env README.md": "closed to the tools",
    "tree -o listing.txt": "-o writes files",
    "tree -R -L 1": "-R writes files",
    "tree --fromfile names.txt": "--fromfile writes files",
    "tree -l": "-l writes files",
    "tree --hintro=.env -H .": "closed to the tools",
    "tree --gitfile ~/.gitignore": "closed to the tools",
    "tree ~": "closed to the tools",
}


@pytest.mark.parametrize(("command", "reason"), NOT_READ_ONLY.items())
def test_forms_that_do_more_ask_and_say_why(layout: Layout, command: str, reason: str) -> None:
    (layout.root / ".venv" / "bin" / "python").unlink()
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask"
    assert reason in verdict.reason


def test_a_workspace_python_still_shadows_unless_it_links_out(layout: Layout) -> None:
    """`.venv/bin/python` runs first for commands: a script there is the workspace's program;
    a link to an interpreter outside (what `python -m venv` makes) is that interpreter."""
    verdict = classify("python --version", layout.root, layout.home)
    assert verdict.kind == "ask" and ".venv/bin/python" in verdict.reason
    link = layout.root / ".venv" / "bin" / "python"
    link.unlink()
    link.symlink_to(Path(os.path.realpath(shutil.which("python3") or "/usr/bin/python3")))
    assert classify("python --version", layout.root, layout.home).kind == "allow"
    link.unlink()
    link.symlink_to(layout.root / "src" / "a.py")  # a link to a file of the workspace
    assert classify("python --version", layout.root, layout.home).kind == "ask"
