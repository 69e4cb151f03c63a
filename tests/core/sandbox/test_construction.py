"""How the sandboxes are put together: masks, mounts, the Seatbelt profile, the scrub."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from kesi_lsp.core.sandbox import NoSandbox, masks
from kesi_lsp.core.sandbox.bubblewrap import BubblewrapSandbox, BwrapFeatures
from kesi_lsp.core.sandbox.children import tied
from kesi_lsp.core.sandbox.env import scrub_environment
from kesi_lsp.core.sandbox.guard import Spec, sandbox_process_count
from kesi_lsp.core.sandbox.masks import Kit, workspace_masks
from kesi_lsp.core.sandbox.seatbelt import SeatbeltSandbox, profile
from kesi_lsp.core.sandbox.zones import READONLY_NAMES, SECRET_NAMES, SECRET_PREFIXES

KIT = Kit("/kit/denied", "/kit/denied.d", "/kit/empty")


def spec_for(root: Path, max_entries: int = 1000) -> Spec:
    return Spec(
        bwrap=["bwrap"],
        inner=["/bin/sh", "-c"],
        command="true",
        root=str(root),
        secret_names=list(SECRET_NAMES),
        secret_prefixes=list(SECRET_PREFIXES),
        readonly_names=list(READONLY_NAMES),
        blank_files=[],
        deny_paths=[],
        max_entries=max_entries,
        max_processes=10,
        max_file_bytes=10,
        disk_budget_bytes=10,
        min_free_bytes=10,
        max_memory_bytes=0,
        use_cgroup=False,
        messages={},
    )


def mounts(args: list[str]) -> dict[str, str]:
    """target -> source, from a flat list of `--ro-bind SRC DEST` triples."""
    assert len(args) % 3 == 0
    return {args[i + 2]: args[i + 1] for i in range(0, len(args), 3)}


def test_masks_cover_the_ignore_list_at_any_depth(tmp_path: Path) -> None:
    for folder in ("src/deep", ".git/hooks", "node_modules/x", "pkg/__pycache__", ".venv/bin"):
        (tmp_path / folder).mkdir(parents=True)
    for file in (".env", "src/deep/.env.local", "src/.DS_Store", ".git/config", "src/a.py"):
        (tmp_path / file).write_text("x")
    (tmp_path / "node_modules" / "x" / ".env").write_text("not reached")
    (tmp_path / "link.env").symlink_to(tmp_path / ".env")
    (tmp_path / ".env.link").symlink_to(tmp_path / "src" / "a.py")
    args = workspace_masks(spec_for(tmp_path), KIT)
    assert args is not None
    found = mounts(args)
    root = str(tmp_path)
    assert found == {
        f"{root}/.env": "/kit/denied",
        f"{root}/src/deep/.env.local": "/kit/denied",
        f"{root}/src/.DS_Store": "/kit/denied",
        f"{root}/.git": f"{root}/.git",
        f"{root}/.git/config": "/kit/empty",
        f"{root}/node_modules": f"{root}/node_modules",
        f"{root}/pkg/__pycache__": f"{root}/pkg/__pycache__",
        f"{root}/.venv": f"{root}/.venv",
    }
    assert all(args[i] == "--ro-bind" for i in range(0, len(args), 3))
    assert args.index(f"{root}/.git") < args.index(f"{root}/.git/config")


def test_masks_match_names_without_case(tmp_path: Path) -> None:
    """A case-insensitive disk opens `.env` as `.ENV`: the masks fold case like the file tools."""
    for folder in (".Git", "src/NODE_MODULES"):
        (tmp_path / folder).mkdir(parents=True)
    for file in (".ENV", "src/.Env.Local", ".Git/config", "src/Env.py"):
        (tmp_path / file).write_text("x")
    args = workspace_masks(spec_for(tmp_path), KIT)
    assert args is not None
    root = str(tmp_path)
    assert mounts(args) == {
        f"{root}/.ENV": "/kit/denied",
        f"{root}/src/.Env.Local": "/kit/denied",
        f"{root}/.Git": f"{root}/.Git",
        f"{root}/.Git/config": "/kit/empty",
        f"{root}/src/NODE_MODULES": f"{root}/src/NODE_MODULES",
    }


def test_a_secret_folder_gets_the_folder_mask(tmp_path: Path) -> None:
    (tmp_path / ".env").mkdir()
    args = workspace_masks(spec_for(tmp_path), KIT)
    assert args == ["--ro-bind", "/kit/denied.d", f"{tmp_path}/.env"]


def test_too_many_entries_gives_up_instead_of_hiding_half(tmp_path: Path) -> None:
    for index in range(12):
        (tmp_path / f"f{index}").write_text("x")
    assert workspace_masks(spec_for(tmp_path, max_entries=10), KIT) is None
    assert workspace_masks(spec_for(tmp_path, max_entries=12), KIT) == []


def test_the_mask_kit_is_unopenable_and_removed(tmp_path: Path) -> None:
    with masks.mask_kit() as kit:
        assert Path(kit.denied_file).stat().st_mode & 0o777 == 0
        assert Path(kit.denied_dir).stat().st_mode & 0o777 == 0
        assert Path(kit.empty_file).read_text() == ""
        folder = Path(kit.empty_file).parent
    assert not folder.exists()


def sandbox_for(home: Path) -> BubblewrapSandbox:
    return BubblewrapSandbox("/usr/bin/bwrap", home, python="/py", features=BwrapFeatures((0, 8)))


def test_bwrap_arguments_isolate_and_mount_only_what_is_needed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".cargo").mkdir(parents=True)
    (home / ".ssh").mkdir()
    root = home / "proj"
    root.mkdir()
    args = sandbox_for(home).static_args(root)
    joined = " ".join(args)
    for flag in ("--unshare-all", "--unshare-user", "--die-with-parent", "--new-session"):
        assert flag in args
    assert "--share-net" not in args
    assert args[args.index("--cap-drop") + 1] == "ALL"
    assert "--disable-userns" in args
    assert f"--tmpfs {home}" in joined
    assert f"--ro-bind {home / '.cargo'} {home / '.cargo'}" in joined
    assert ".ssh" not in joined
    assert f"--bind {root} {root} --chdir {root}" in joined
    assert "--ro-bind /home" not in joined and "/var/run" not in joined
    assert "--tmpfs /tmp" in joined
    assert args.index(f"{home}") < args.index(str(root))  # the workspace is mounted last


def test_the_guard_gets_the_command_untouched_as_json(tmp_path: Path) -> None:
    command = "echo \"$HOME\" 'quoted' `x` $(y) ; 中文"
    argv = sandbox_for(tmp_path).argv(command, tmp_path)
    assert argv[:3] == ["/py", "-I", "-S"]
    assert argv[3].endswith("guard.py")
    spec = Spec.from_json(argv[4])
    assert spec.command == command
    assert spec.inner[-2:] == ["/bin/sh", "-c"]
    assert spec.root == str(tmp_path.resolve())
    assert json.loads(argv[4])["messages"]["processes"].startswith("(sandbox:")


def test_a_venvs_base_interpreter_is_mounted(tmp_path: Path) -> None:
    home = tmp_path / "home"
    prefix = home / "tools" / "python3.11"
    (prefix / "bin").mkdir(parents=True)
    root = tmp_path / "proj"
    (root / ".venv").mkdir(parents=True)
    (root / ".venv" / "pyvenv.cfg").write_text(f"home = {prefix / 'bin'}\nversion = 3.11\n")
    args = sandbox_for(home).static_args(root)
    assert f"--ro-bind {prefix} {prefix}" in " ".join(args)


def test_environment_is_scrubbed_and_points_temp_inside(tmp_path: Path) -> None:
    base = {
        "GITHUB_TOKEN": "x",
        "github_token": "x",
        "DATABASE_URL": "x",
        "MY_SECRET": "x",
        "OPENAI_KEY": "withheld by pattern now (issue 29)",
        "GH_PAT": "withheld",
        "GIT_AUTHOR_NAME": "kept",
        "PATH": "/usr/bin",
        "TMPDIR": "/somewhere/else",
    }
    env = sandbox_for(tmp_path).environment(base, tmp_path)
    assert env == {
        "GIT_AUTHOR_NAME": "kept",
        "PATH": "/usr/bin",
        "TMPDIR": "/tmp",
        "HOME": str(tmp_path),
    }
    assert scrub_environment(base) == NoSandbox().environment(base, tmp_path)


def test_seatbelt_profile_takes_paths_as_parameters_never_as_text(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".local").mkdir(parents=True)
    root = home / 'work"quoted'
    root.mkdir()
    sandbox = SeatbeltSandbox("/usr/bin/sandbox-exec", home, tmp_path / "tmp")
    tethered = sandbox.argv("cat note.txt", root)
    assert tethered[: len(tied([]))] == tied([])  # under the tether: it dies with the server
    argv = tethered[len(tied([])) :]
    assert argv[0] == "/usr/bin/sandbox-exec"
    assert argv[-3:] == ["/bin/sh", "-c", "cat note.txt"]
    text = argv[argv.index("-p") + 1]
    assert str(root) not in text and str(home) not in text
    assert text == profile(1)
    definitions = [argv[i + 1] for i, item in enumerate(argv) if item == "-D"]
    assert definitions == [
        f"HOME_DIR={home}",
        f"BASE_DIR={root}",
        f"TMP_DIR={tmp_path / 'tmp'}",
        f"TOOLCHAIN_0={home / '.local'}",
    ]
    assert "(deny network*)" in text
    assert '(subpath (param "TOOLCHAIN_0"))' in text
    assert "\\.[eE][nN][vV]|\\.[eE][nN][vV]\\.[^/]*" in text
    assert "[nN][oO][dD][eE]_[mM][oO][dD][uU][lL][eE][sS]" in text
    assert text.startswith("(version 1)\n(allow default)")


@pytest.mark.parametrize(
    ("path", "secret", "frozen"),
    [
        ("/w/.env", True, False),
        ("/w/.ENV", True, False),
        ("/w/sub/.Env.Local", True, False),
        ("/w/.ds_store", True, False),
        ("/w/.Git/config", False, True),
        ("/w/a/NODE_MODULES/x.js", False, True),
        ("/w/Venv/bin/python", False, True),
        ("/w/.envrc", False, False),
        ("/w/src/Env.py", False, False),
        ("/w/.github/ci.yml", False, False),
    ],
)
def test_seatbelt_names_match_without_case(path: str, secret: bool, frozen: bool) -> None:
    """macOS disks ignore case by default: `cat .ENV` opens `.env`, so the profile's regexes
    (the same text SBPL reads, checked here with Python's regex engine) must match any case."""
    from kesi_lsp.core.sandbox.seatbelt import READONLY_PATTERN, SECRET_PATTERN

    def under(pattern: str) -> bool:
        return re.match(f"^/w/(.*/)?({pattern})(/|$)", path) is not None

    assert under(SECRET_PATTERN) is secret
    assert under(READONLY_PATTERN) is frozen


def test_the_sandbox_sorts_every_name_of_the_ignore_list() -> None:
    """Secrets, tool state and caches together are exactly the fence's ignore list."""
    from kesi_lsp.core.paths import IGNORED_NAMES, IGNORED_PREFIX
    from kesi_lsp.core.sandbox.zones import WRITABLE_IGNORED_NAMES

    sorted_names = [*SECRET_NAMES, *READONLY_NAMES, *WRITABLE_IGNORED_NAMES]
    assert len(sorted_names) == len(set(sorted_names))
    assert set(sorted_names) == set(IGNORED_NAMES)
    assert SECRET_PREFIXES == (IGNORED_PREFIX,)


def test_a_child_not_yet_in_its_new_root_counts_as_starting() -> None:
    """bwrap's child sees the host's /proc until it moves into the sandbox's root: the guard
    once counted the host's processes there and stopped a command at its start."""
    child = subprocess.Popen(["sleep", "30"])
    try:
        assert len([p for p in Path("/proc").iterdir() if p.name.isdigit()]) > 1
        assert sandbox_process_count(os.getpid()) == 0
    finally:
        child.kill()
        child.wait()
