"""The fence and the ignore list, as plain functions."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core.paths import (
    IGNORED_NAMES,
    is_ignored,
    is_ignored_name,
    names_ignored,
    relative,
    safe_path,
    safe_write_path,
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    base = (tmp_path / "ws").resolve()
    (base / "sub").mkdir(parents=True)
    (base / "sub" / "a.txt").write_text("a", encoding="utf-8")
    (tmp_path / "outside.txt").write_text("o", encoding="utf-8")
    return base


def test_ignore_list_is_the_seeds() -> None:
    assert (
        frozenset(
            {
                ".git",
                "node_modules",
                "__pycache__",
                ".venv",
                "venv",
                ".env",
                ".DS_Store",
                ".pytest_cache",
            }
        )
        == IGNORED_NAMES
    )
    assert is_ignored_name(".env.local")
    assert is_ignored_name(".env.")
    assert not is_ignored_name(".envrc")
    assert not is_ignored_name("env")
    assert not is_ignored_name(".github")


def test_is_ignored_at_any_depth_and_outside(root: Path) -> None:
    assert is_ignored(root, root / "a" / "b" / "node_modules" / "x")
    assert is_ignored(root, root / ".env.production")
    assert not is_ignored(root, root / "src" / "env.py")
    assert is_ignored(root, root.parent / "elsewhere")
    assert not is_ignored(root, root)


def test_names_ignored_reads_both_separators(root: Path) -> None:
    assert names_ignored(root, "sub/../.env")
    assert names_ignored(root, "sub\\.git\\config")
    assert not names_ignored(root, "src/app.py")
    assert names_ignored(root, f"{root}/node_modules/x.js")


def test_a_workspace_under_an_ignored_name_still_works(tmp_path: Path) -> None:
    root = (tmp_path / "venv" / "project").resolve()
    root.mkdir(parents=True)
    assert not names_ignored(root, f"{root}/src/app.py")
    assert not is_ignored(root, root / "src" / "app.py")


def test_safe_path_existing_inside_only(root: Path) -> None:
    assert safe_path(root, "sub/a.txt") == root / "sub" / "a.txt"
    assert safe_path(root, "sub/../sub/a.txt") == root / "sub" / "a.txt"
    assert safe_path(root, ".") == root
    assert safe_path(root, "missing.txt") is None
    assert safe_path(root, "../outside.txt") is None
    assert safe_path(root, "/etc/passwd") is None
    assert safe_path(root, "a\x00b") is None
    assert safe_path(root, "x" * 5000) is None


def test_safe_path_follows_symlinks_before_judging(root: Path) -> None:
    (root / "out").symlink_to(root.parent / "outside.txt")
    (root / "in").symlink_to(root / "sub" / "a.txt")
    (root / "loop").symlink_to(root / "loop")
    assert safe_path(root, "out") is None
    assert safe_path(root, "in") == root / "sub" / "a.txt"
    assert safe_path(root, "loop") is None


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "  ",
        ".",
        "sub/..",
        "~",
        "~/x",
        "/abs",
        "C:\\x",
        "C:x",
        "\\x",
        "//server/x",
        "../x",
        "a\x00",
    ],
)
def test_safe_write_path_refusals(root: Path, raw: str) -> None:
    assert safe_write_path(root, raw) is None


def test_safe_write_path_new_and_existing(root: Path) -> None:
    assert safe_write_path(root, "new/deep/file.txt") == root / "new" / "deep" / "file.txt"
    assert safe_write_path(root, "sub/a.txt") == root / "sub" / "a.txt"
    (root / "outdir").symlink_to(root.parent)
    assert safe_write_path(root, "outdir/x.txt") is None


def test_relative_is_posix(root: Path) -> None:
    assert relative(root, root / "sub" / "a.txt") == "sub/a.txt"
    assert relative(root, root) == "."


@pytest.mark.parametrize(
    ("name", "ignored"),
    [
        (".ENV", True),
        (".Env", True),
        (".eNv.LOCAL", True),
        (".ENV.production", True),
        (".GIT", True),
        (".Git", True),
        ("NODE_MODULES", True),
        ("Node_Modules", True),
        ("__PYCACHE__", True),
        (".VENV", True),
        ("VENV", True),
        (".ds_store", True),
        (".PYTEST_CACHE", True),
        (".ENVRC", False),
        ("ENV", False),
        (".GITHUB", False),
        ("Node_Modules_backup", False),
        ("src", False),
    ],
)
def test_ignore_list_folds_case(name: str, ignored: bool) -> None:
    """On macOS and Windows `.ENV` opens `.env`: the list is compared without case."""
    assert is_ignored_name(name) is ignored


def test_is_ignored_and_names_ignored_fold_case(root: Path) -> None:
    assert is_ignored(root, root / ".Git" / "config")
    assert is_ignored(root, root / "a" / "NODE_MODULES" / "x.js")
    assert names_ignored(root, ".ENV")
    assert names_ignored(root, "sub\\.GIT\\config")
    assert names_ignored(root, f"{root}/Node_Modules/x")
    assert not names_ignored(root, "src/Env.py")
