"""A workspace that is the home folder (the seed's "void" sandbox, Days 15–16), run for real: the
model is told exactly what bubblewrap closes there, and every claim is checked (issue 24 item 7).

The seed's void line said "the names above are still unreadable" after the ignore list. Its
Seatbelt profile closed the whole list; KeSi's sandboxes keep tool state readable (`zones.py`),
so `cat node_modules/a.js` works in a home workspace and the line was untrue.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core.sandbox.selection import describe, prompt_lines
from tests.core.sandbox.conftest import FAKE_KEY, Playground, bubblewrap, make_playground

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]


@pytest.fixture
def home_workspace(tmp_path: Path) -> Playground:
    """The playground, opened at its home folder."""
    ground = make_playground(tmp_path)
    home = ground.home
    for folder in ("node_modules", ".venv", ".git", "__pycache__", ".pytest_cache"):
        (home / folder).mkdir()
    (home / "node_modules" / "a.js").write_text("module.exports = 1;\n")
    (home / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (home / ".git" / "config").write_text('[remote "o"]\n url = https://user:tok@x/repo\n')
    (home / "__pycache__" / "m.pyc").write_text("compiled\n")
    (home / ".pytest_cache" / "v").write_text("ids\n")
    (home / ".env").write_text(f"KEY={FAKE_KEY}\n")
    return Playground(home, home, ground.outside, ground.environ)


async def test_the_home_workspace_prompt_says_what_bubblewrap_really_closes(
    home_workspace: Playground,
) -> None:
    ground = home_workspace
    box = bubblewrap(ground)
    state = describe(box, ground.root, ground.environ)
    assert state.variant == "void"
    line = prompt_lines(state, "en")[0]
    assert "names above are still unreadable" not in line
    # "can be read but not written": tool state
    for path in ("node_modules/a.js", ".venv/pyvenv.cfg", "__pycache__/m.pyc"):
        ran = await ground.run(box, f"cat {path}")
        assert ran.code == 0, (path, ran.output)
        written = await ground.run(box, f"echo x >> {path}")
        assert written.code != 0, path
    assert ".git, .venv, venv, node_modules and __pycache__ can be read but not written" in line
    # ".env files are still unreadable and .git/config reads as empty"
    ran = await ground.run(box, "cat .env")
    assert ran.code != 0 and FAKE_KEY not in ran.output
    ran = await ground.run(box, "cat .git/config")
    assert (ran.code, ran.output) == (0, "")
    assert ".env files are still unreadable and .git/config reads as empty" in line
    # "everything in it, other projects and folders such as ~/.ssh included"
    ran = await ground.run(box, "cat .ssh/id_ed25519 && echo mine > projects/outside/new.txt")
    assert ran.code == 0 and "PRIVATE KEY" in ran.output, ran.output
    assert (ground.outside / "new.txt").read_text() == "mine\n"
    assert "other projects and folders such as ~/.ssh included" in line
    # and the cache pytest writes stays writable, as the prompt implies by not listing it
    assert (await ground.run(box, "echo more >> .pytest_cache/v")).code == 0
