"""Auto-allowed git never runs a program from git's config, and prints no committed secret.

A real repository whose `.git/config` names programs (core.fsmonitor, diff.external, a textconv
driver, a clean filter, a pager) that would leave a marker file if they ran. The command the
policy lets run is run for real: no marker, and the output is still what the user asked for.
The model's own text, run as written, does leave the markers (so the test can fail).
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from kesi_lsp.core.permissions import classify
from tests.core.permissions.gitrepo import git, run

PROGRAMS = {
    "core.fsmonitor": "fsmonitor",
    "diff.external": "external",
    "diff.evil.textconv": "textconv",
    "filter.evil.clean": "clean",
    "core.pager": "pager",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (root / ".env").write_text("API_KEY=committed-secret\n")
    git(root, "add", "-f", "calc.py", ".env")
    git(root, "commit", "-qm", "init")
    (root / ".gitattributes").write_text("*.py diff=evil filter=evil\n")
    for key, marker in PROGRAMS.items():
        script = root.parent / f"{marker}.sh"
        script.write_text(f"#!/bin/sh\ntouch {root.parent}/ran-{marker}\ncat\n")
        script.chmod(0o755)
        git(root, "config", key, str(script))
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    return root


def markers(root: Path) -> set[str]:
    return {p.name.removeprefix("ran-") for p in root.parent.glob("ran-*")}


@pytest.mark.parametrize(
    "command",
    ["git status", "git diff", "git log -p", "git show HEAD", "git diff --stat && git status -s"],
)
def test_allowed_git_runs_no_configured_program(repo: Path, command: str) -> None:
    verdict = classify(command, repo, repo.parent)
    assert verdict.kind == "allow", verdict.reason
    assert verdict.command is not None and verdict.command != command
    output = run(verdict.command, repo)
    assert markers(repo) == set(), (verdict.command, output)
    assert "committed-secret" not in output
    if "status" in command:
        assert "calc.py" in output
    if command == "git diff":
        assert "+    return a + b" in output


def test_the_same_text_as_written_does_run_them(repo: Path) -> None:
    run("git status && git diff && git log -p", repo)
    assert {"fsmonitor", "external"} <= markers(repo)


def test_filters_are_found_in_included_config_files(repo: Path, tmp_path: Path) -> None:
    extra = tmp_path / "extra.gitconfig"
    extra.write_text('[filter "lfs"]\n\tclean = git-lfs clean -- %f\n')
    git(repo, "config", "include.path", str(extra))
    verdict = classify("git status", repo, repo.parent)
    assert verdict.command is not None
    words = shlex.split(verdict.command)
    assert "filter.lfs.clean=" in words and "filter.evil.clean=" in words
    assert "core.fsmonitor=false" in words and "--no-optional-locks" in words


def test_plain_commands_run_as_written(repo: Path) -> None:
    assert classify("ls -la", repo, repo.parent).command is None
    mixed = classify("ls && git log --oneline", repo, repo.parent).command
    assert mixed is not None and mixed.startswith("ls && git --no-pager")
    assert "--no-ext-diff" in mixed and ":(exclude" not in mixed  # no patch: no exclusions


def marker_script(base: Path, marker: str, then: str = "cat") -> str:
    script = base / f"{marker}.sh"
    script.write_text(f"#!/bin/sh\ntouch {base}/ran-{marker}\n{then}\n")
    script.chmod(0o755)
    return str(script)


def restat(path: Path) -> None:
    """Same size, new mtime: git must hash the file again, through its clean filter."""
    stamp = path.stat().st_mtime + 100
    os.utime(path, (stamp, stamp))


def test_a_filter_section_in_capitals_is_turned_off_too(tmp_path: Path) -> None:
    """git's section names are case-blind: `[FILTER "evil"]` is `filter.evil`."""
    root = tmp_path / "upper"
    root.mkdir()
    git(root, "init", "-q")
    (root / "a.txt").write_text("x\n")
    (root / ".gitattributes").write_text("*.txt filter=evil\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "one")
    with (root / ".git" / "config").open("a") as config:
        config.write(f'[FILTER "evil"]\n\tclean = {marker_script(tmp_path, "upper")}\n')
    for command in ("git diff", "git status"):
        restat(root / "a.txt")
        verdict = classify(command, root, tmp_path)
        assert verdict.command is not None
        run(verdict.command, root)
        assert markers(root) == set(), verdict.command
    restat(root / "a.txt")
    run("git diff", root)
    assert markers(root) == {"upper"}


def test_a_submodules_own_filter_does_not_run(tmp_path: Path) -> None:
    """`git status` looks into submodules by starting git there, with the submodule's config."""
    root = tmp_path / "super"
    sub = root / "sub"
    sub.mkdir(parents=True)
    git(root, "init", "-q")
    git(sub, "init", "-q")
    (sub / "s.txt").write_text("s\n")
    (sub / ".gitattributes").write_text("*.txt filter=subevil\n")
    git(sub, "add", ".")
    git(sub, "commit", "-qm", "s")
    git(sub, "config", "filter.subevil.clean", marker_script(tmp_path, "subfilter"))
    head = git(sub, "rev-parse", "HEAD").strip()
    git(root, "update-index", "--add", "--cacheinfo", f"160000,{head},sub")
    git(root, "commit", "-qm", "with a submodule")
    for command in ("git status", "git diff", "git status --porcelain"):
        restat(sub / "s.txt")
        verdict = classify(command, root, tmp_path)
        assert verdict.command is not None
        run(verdict.command, root)
        assert markers(root) == set(), verdict.command
    restat(sub / "s.txt")
    run("git status", root)
    assert markers(root) == {"subfilter"}


def test_a_partial_clone_fetches_nothing(tmp_path: Path) -> None:
    """A missing object of a partial clone is fetched on demand, through core.sshCommand or
    remote.<name>.uploadpack, even when the configuration allows the protocol explicitly."""
    root = tmp_path / "partial"
    root.mkdir()
    git(root, "init", "-q")
    (root / "big.txt").write_text("large file\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "one")
    blob = git(root, "rev-parse", "HEAD:big.txt").strip()
    (root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    settings = {
        "core.repositoryformatversion": "1",
        "extensions.partialClone": "origin",
        "remote.origin.promisor": "true",
        "remote.origin.url": "ssh://example.invalid/repo",
        "core.sshCommand": marker_script(tmp_path, "ssh", then="exit 1"),
        "protocol.ssh.allow": "always",
    }
    for key, value in settings.items():
        git(root, "config", key, value)
    for command in ("git show HEAD", "git log -p", f"git show {blob}"):
        verdict = classify(command, root, tmp_path)
        if verdict.kind == "allow":
            assert verdict.command is not None
            run(verdict.command, root)
        assert markers(root) == set(), command
    run("git show HEAD", root)
    assert markers(root) == {"ssh"}


def test_a_signature_check_in_a_configured_format_runs_no_gpg(tmp_path: Path) -> None:
    """`format.pretty=%G?` (or a `pretty.<alias>`) makes plain `git log` verify signatures with
    `gpg.program`; any commit with a `gpgsig` header, valid or not, triggers it."""
    root = tmp_path / "signed"
    root.mkdir()
    git(root, "init", "-q")
    (root / "a.txt").write_text("a\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "one")
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    stamp = "a <a@b> 1700000000 +0000"
    body = (
        f"tree {tree}\nauthor {stamp}\ncommitter {stamp}\n"
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nsigned\n"
    )
    commit = git(root, "hash-object", "-t", "commit", "-w", "--stdin", stdin=body).strip()
    git(root, "update-ref", "HEAD", commit)
    git(root, "config", "gpg.program", marker_script(tmp_path, "gpg", then="exit 1"))
    git(root, "config", "format.pretty", "%h %G? %s")
    git(root, "config", "pretty.sig", "%h %G?")
    for command in ("git log -1", "git log --pretty=sig", "git show -s"):
        verdict = classify(command, root, tmp_path)
        assert verdict.kind == "allow" and verdict.command is not None
        assert "signed" in run(verdict.command, root) or "sig" in command
        assert markers(root) == set(), verdict.command
    run("git log -1", root)
    assert markers(root) == {"gpg"}


def test_git_diff_outside_a_repository_is_judged_and_run_as_no_index(tmp_path: Path) -> None:
    """Outside a work tree `git diff A B` is `--no-index`: it reads whole folders (so a folder
    holding `.env` asks, like the explicit form), and it runs without the secret pathspecs the
    `--no-index` form refuses (with them, git only printed its usage)."""
    (tmp_path / "a").write_text("one\n")
    (tmp_path / "b").write_text("two\n")
    (tmp_path / "src").mkdir()
    (tmp_path / ".env").write_text("KEY=secret\n")
    home = tmp_path / "home"
    assert classify("git diff src .", tmp_path, home).kind == "ask"
    verdict = classify("git diff a b", tmp_path, home)
    assert verdict.kind == "allow" and verdict.command is not None
    ran = subprocess.run(verdict.command, shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert "-one" in ran.stdout and "+two" in ran.stdout, ran.stderr
