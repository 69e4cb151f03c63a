"""macOS: what the Seatbelt profile lets commands read is exactly what the model is told.

Seatbelt can deny a file but cannot show an empty one instead, and git dies when it cannot read
`.git/config`; so on macOS `.git/config` stays readable (on Linux bwrap blanks it). Issue 19
found the model told the whole ignore list was unreadable while the profile kept `.git`
readable: the prompt now says exactly which names commands can read and which they cannot, and
these tests pin the profile's text to those words.
"""

from __future__ import annotations

import re
from pathlib import Path

from kesi_lsp.core.sandbox.seatbelt import (
    READONLY_PATTERN,
    SECRET_PATTERN,
    SeatbeltSandbox,
    profile,
)
from kesi_lsp.core.sandbox.selection import SandboxState, prompt_lines
from kesi_lsp.core.sandbox.zones import READONLY_NAMES, SECRET_NAMES


def rules_of(text: str, verb: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(f"({verb}")]


def test_the_profile_denies_reading_secrets_and_writing_tool_state_only() -> None:
    text = profile(0)
    read_denials = rules_of(text, "deny file-read*")
    assert any(SECRET_PATTERN in line for line in read_denials)
    assert not any(READONLY_PATTERN in line for line in read_denials)  # .git, .venv readable
    write_denials = rules_of(text, "deny file-write*")
    assert any(READONLY_PATTERN in line for line in write_denials)
    assert "(deny network*)" in text


def test_the_prompt_says_exactly_what_the_profile_lets_commands_read() -> None:
    line = prompt_lines(SandboxState("seatbelt", "on", program="/usr/bin/sandbox-exec"), "en")[0]
    for name in SECRET_NAMES:
        assert name in line.split("unreadable")[0]  # named among the unreadable ones
    readable = line.split("unreadable;")[1]
    for name in READONLY_NAMES:
        assert name in readable  # named among those that can be read but not written
    assert "its config included" in readable
    zh = prompt_lines(SandboxState("seatbelt", "on", program="x"), "zh-TW")[0]
    assert ".git/config" in zh and "讀不到" in zh


def test_the_profile_matches_case_insensitive_names_like_the_file_tools() -> None:
    secret = re.compile(SECRET_PATTERN)
    assert secret.fullmatch(".ENV") and secret.fullmatch(".Env.Local")
    assert not secret.fullmatch(".envrc")


def test_active_environments_are_readable_parameters_and_secrets_are_not(tmp_path: Path) -> None:
    home = tmp_path / "Users" / "u"
    venv = home / ".cache" / "pypoetry" / "virtualenvs" / "proj-py3.12"
    (venv / "bin").mkdir(parents=True)
    (home / ".ssh").mkdir()
    root = home / "src" / "proj"
    root.mkdir(parents=True)
    environ = {"VIRTUAL_ENV": str(venv), "PATH": f"{venv}/bin:{home}/.ssh:/usr/bin"}
    sandbox = SeatbeltSandbox("/usr/bin/sandbox-exec", home, tmp_path / "tmp", environ)
    params = dict(sandbox.parameters(root))
    toolchains = {value for key, value in params.items() if key.startswith("TOOLCHAIN_")}
    assert str(venv) in toolchains
    assert not any(value.startswith(str(home / ".ssh")) for value in toolchains)
    argv = sandbox.argv("true", root)
    assert profile(len(toolchains)) in argv
