"""The fence, tried with generated paths: nothing outside and nothing ignored ever leaks.

Each example builds a fresh workspace with canary files: ignored files and folders at random
depths (content and file names contain IGNORED-SECRET), a folder outside the workspace
(OUTSIDE-SECRET), and symlinks placed at random, with innocent or ignored names, pointing out,
into ignored places, at `/`, at themselves, or nowhere. Then the file tools are called with
generated paths and patterns: traversal, absolute paths (some inside, some outside), `~`, Windows
drives and roots, NUL bytes, unicode, ignored names at random depths. The approver says yes to
everything, so every write that passes the checks really lands.

It must hold that no result ever shows a canary, no listing or glob shows an ignored name or a
path that resolves outside or into the ignore list, no read record points there, and afterwards
the outside folder, every ignored file and the folder around the workspace are byte for byte as
they were. (run_command is left out on purpose: a shell is not fenced by paths, it is confined by
the permission gate and the sandbox, see test_run_command.)
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kesi_lsp.core.paths import IGNORED_NAMES, is_ignored, is_ignored_name
from kesi_lsp.core.tools import ToolResult
from tests.budget import examples
from tests.core.workspace import Workspace, make_workspace

CANARIES = ("IGNORED-SECRET", "OUTSIDE-SECRET")
IGNORED = [*sorted(IGNORED_NAMES), ".env.local", ".env.production"]
LINK_NAMES = [
    "link",
    "settings",
    "elsewhere",
    "up",
    "loop",
    "alias",
    "深層",
    ".env",
    "node_modules",
]
DIRS = ["a", "b", "src", "深", "a/b", "src/deep/er"]
SEGMENTS = [
    "..",
    ".",
    "",
    "~",
    "C:",
    "c:\\x",
    "\\",
    "..\\..",
    "\x00",
    "*",
    "**",
    "?",
    "[a-z]*",
    "app.py",
    "new.txt",
    "outside",
    *DIRS,
    *IGNORED,
    *LINK_NAMES,
]
PREFIXES = [
    "",
    "/",
    "~/",
    "~root/",
    "../",
    "../../",
    "./",
    "C:\\",
    "C:",
    "\\\\srv\\share\\",
    "{OUT}/",
    "{ROOT}/",
]
ABSOLUTE = ["/etc/passwd", "/", "{OUT}", "{OUT}/secret.txt", "{ROOT}", "{ROOT}/src/app.py", "~"]
ESCAPES = [
    "../new.txt",
    "../outside/new.txt",
    "../outside/secret.txt",
    "../outside/other.txt",
    "a/../../new.txt",
    "src/deep/../../../new.txt",
    "../../new.txt",
    "..\\new.txt",
    "elsewhere/new.txt",
    "link",
    "up/new.txt",
    "parent/new.txt",
]

segments = st.one_of(st.sampled_from(SEGMENTS), st.text(max_size=4))
generic_paths = st.one_of(
    st.sampled_from(ABSOLUTE),
    st.sampled_from(ESCAPES),
    st.tuples(st.sampled_from(PREFIXES), st.lists(segments, min_size=1, max_size=5)).map(
        lambda pair: pair[0] + "/".join(pair[1])
    ),
)
grep_patterns = st.sampled_from(["SECRET", "S.CRET", ".", "CANARY", "OUTSIDE|IGNORED", "[A-Z]+"])


@dataclass(frozen=True)
class Call:
    tool: str
    arguments: dict[str, str]


def calls(paths: st.SearchStrategy[str]) -> st.SearchStrategy[Call]:
    """One tool call, its paths drawn from `paths`."""
    return st.one_of(
        st.builds(lambda p: Call("read_file", {"file_path": p}), paths),
        st.builds(lambda p: Call("list_files", {"path": p}), paths),
        st.just(Call("list_files", {})),
        st.builds(lambda p: Call("glob", {"pattern": p}), paths),
        st.builds(lambda g: Call("grep", {"pattern": g}), grep_patterns),
        st.builds(lambda g, p: Call("grep", {"pattern": g, "path": p}), grep_patterns, paths),
        st.builds(
            lambda p, old: Call(
                "edit_file", {"file_path": p, "old_string": old, "new_string": "PWNED"}
            ),
            paths,
            st.sampled_from(["SECRET", "CANARY", "="]),
        ),
        st.builds(lambda p: Call("write_file", {"file_path": p, "content": "PWNED\n"}), paths),
        st.builds(lambda p: Call("read_then_write", {"file_path": p}), paths),
    )


def planted_paths(planted: list[str]) -> st.SearchStrategy[str]:
    """Paths that name what this example planted, written in the ways a model might."""
    written = st.sampled_from(["", "./", "src/../", "a/b/../../", "{ROOT}/", "/", "../ws/"])
    tails = st.sampled_from(["", "/inner.txt", "/secret.txt", "/new.txt", "/*", "/**", "/.."])
    return st.builds(lambda w, p, t: w + p + t, written, st.sampled_from(planted), tails)


LINK_TARGETS = ["outside-file", "outside-dir", "slash", "parent", "ignored-file", "ignored-dir",
                "inside-file", "inside-dir", "self", "dangling-out"]  # fmt: skip
links = st.lists(
    st.tuples(
        st.sampled_from(["", *DIRS]), st.sampled_from(LINK_NAMES), st.sampled_from(LINK_TARGETS)
    ),
    max_size=5,
)
ignored_places = st.lists(
    st.tuples(st.sampled_from(["", *DIRS]), st.sampled_from(IGNORED), st.booleans()),
    min_size=1,
    max_size=5,
)


def build(
    ws: Workspace, places: list[tuple[str, str, bool]], placed: list[tuple[str, str, str]]
) -> list[str]:
    """Plant the canaries and the symlinks; return their workspace-relative paths."""
    planted: list[str] = []
    ws.write("src/app.py", "CANARY = 'visible'\n")
    for folder in DIRS:
        (ws.root / folder).mkdir(parents=True, exist_ok=True)
    (ws.outside / "secret.txt").write_text("OUTSIDE-SECRET =\n", encoding="utf-8")
    first_ignored: Path | None = None
    for n, (folder, name, as_dir) in enumerate(places):
        place = ws.root / folder / name
        if place.exists() or place.is_symlink():
            continue
        if as_dir:
            place.mkdir(parents=True)
            (place / "inner.txt").write_text(f"IGNORED-SECRET-{n} =\n", "utf-8")
        else:
            place.parent.mkdir(parents=True, exist_ok=True)
            place.write_text(f"IGNORED-SECRET-{n} =\n", encoding="utf-8")
        first_ignored = first_ignored or place
        planted.append(place.relative_to(ws.root).as_posix())
    targets = {
        "outside-file": ws.outside / "secret.txt",
        "outside-dir": ws.outside,
        "slash": Path("/"),
        "parent": ws.root.parent,
        "ignored-file": first_ignored,
        "ignored-dir": first_ignored,
        "inside-file": ws.root / "src" / "app.py",
        "inside-dir": ws.root / "src",
        "dangling-out": ws.outside / "not-there.txt",
    }
    for folder, name, kind in placed:
        link = ws.root / folder / name
        if link.exists() or link.is_symlink():
            continue
        target = link if kind == "self" else targets[kind]
        if target is not None:
            link.symlink_to(target)
            planted.append(link.relative_to(ws.root).as_posix())
    return planted


def fill(raw: str, ws: Workspace) -> str:
    return raw.replace("{OUT}", str(ws.outside)).replace("{ROOT}", str(ws.root))


def guarded(ws: Workspace, top: Path) -> dict[str, bytes | None]:
    """Everything that must never change: all of `top` (the folders around the workspace, the
    outside folder) except the workspace's own visible files, and every ignored entry in it."""
    seen: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            if path.is_relative_to(ws.root) and path != ws.root:
                parts = path.relative_to(ws.root).parts
                if not any(is_ignored_name(part) for part in parts):
                    continue
            if path.is_symlink():
                seen[str(path)] = str(path.readlink()).encode()
            elif path.is_file():
                seen[str(path)] = path.read_bytes()
            else:
                seen[str(path)] = None
    return seen


def check_listing(ws: Workspace, call: Call, base: Path, result: ToolResult) -> None:
    """Every line of a listing names something inside the workspace and outside the ignore list."""
    if result.is_error or result.text.startswith(("No accessible", "(nothing")):
        return
    for line in result.text.split("\n"):
        if line.startswith("(") and line.endswith(")"):
            continue
        rel = line.rstrip("/")
        assert not any(is_ignored_name(part) for part in rel.split("/")), (call, line)
        resolved = (base / rel).resolve()
        assert resolved.is_relative_to(ws.root), (call, line)
        assert not is_ignored(ws.root, resolved), (call, line)


async def play(ws: Workspace, actions: list[Call]) -> None:
    for call in actions:
        arguments = {key: fill(value, ws) for key, value in call.arguments.items()}
        if call.tool == "read_then_write":
            results = [
                await ws.call("read_file", file_path=arguments["file_path"]),
                await ws.call("write_file", file_path=arguments["file_path"], content="PWNED\n"),
            ]
        else:
            results = [await ws.call(call.tool, arguments)]
        for result in results:
            for canary in CANARIES:
                assert canary not in result.text, (call, result)
        if call.tool == "glob":
            check_listing(ws, call, ws.root, results[0])
        if call.tool == "list_files":
            listed = arguments.get("path", ".")
            if not results[0].is_error:
                check_listing(ws, call, (ws.root / listed).resolve(), results[0])
        for recorded in ws.session.reads:
            assert recorded.is_relative_to(ws.root), call
            assert not is_ignored(ws.root, recorded), call


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(places=ignored_places, placed=links, data=st.data())
def test_nothing_outside_and_nothing_ignored_ever_leaks(
    places: list[tuple[str, str, bool]], placed: list[tuple[str, str, str]], data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp).resolve()
        nest = top / "l1" / "l2"  # so that ../../ still lands somewhere this test watches
        nest.mkdir(parents=True)
        ws = make_workspace(nest)
        planted = build(ws, places, placed)
        paths = st.one_of(generic_paths, planted_paths(planted))
        actions = data.draw(st.lists(calls(paths), min_size=1, max_size=6), label="actions")
        before = guarded(ws, top)
        asyncio.run(play(ws, actions))
        assert guarded(ws, top) == before
