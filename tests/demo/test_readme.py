"""The README says what the code does: its commands, settings, lists and CI hook are checked."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from kesi_lsp.core.paths import IGNORED_NAMES, IGNORED_PREFIX
from kesi_lsp.core.permissions.policy import SAFE_COMMANDS
from kesi_lsp.core.settings.parse import DEFAULTS, RULES
from kesi_lsp.lsp import commands

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def quickstart_commands() -> list[str]:
    """What .ci/run runs: the lines of the first ```sh block under "## Quickstart"."""
    done = subprocess.run(
        ["bash", "-c", _ci_extraction()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


def _ci_extraction() -> str:
    """The awk program of .ci/run, taken from the script itself (so the test cannot drift)."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    match = re.search(r"\(\n(\s*awk .*?README\.md)\n\)", script, re.DOTALL)
    assert match, ".ci/run no longer reads its commands from README.md"
    return match.group(1)


def test_the_quickstart_is_exactly_the_two_commands_ci_runs() -> None:
    assert quickstart_commands() == ["./dev demo", "./dev test"]
    dev = (ROOT / "dev").read_text(encoding="utf-8")
    assert "  demo)" in dev and "  test)" in dev


def as_json(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, tuple):  # a list setting (passEnv): JSON's list
        return json.dumps(list(value))
    return str(value)


def test_every_setting_is_in_the_table_with_its_default() -> None:
    rows = {
        m.group(1): m.group(2)
        for m in re.finditer(r"^\| `(\w+)` \| ([^|]+) \|", README, re.MULTILINE)
    }
    for rule in RULES:
        assert rule.key in rows, f"setting {rule.key} is not in the README"
        default = getattr(DEFAULTS, rule.attr)
        if default is None:
            continue  # apiKey / baseUrl: the environment decides
        assert f"`{as_json(default)}`" in rows[rule.key], (rule.key, rows[rule.key])


def test_every_command_and_list_the_readme_names_is_the_codes() -> None:
    for name in (
        commands.FIX_THIS,
        commands.ASK,
        commands.CANCEL,
        commands.RESET,
        commands.COST,
        commands.PERMISSIONS,
        commands.REVOKE,
        commands.COMPACT,
    ):
        assert f"`{name}`" in README, name
    for name in IGNORED_NAMES:
        assert f"`{name}`" in README, name
    assert f"`{IGNORED_PREFIX}*`" in README
    safe = {" ".join(words) for words in SAFE_COMMANDS}
    listed = re.search(r"read-only list \((.*?)\)", README, re.DOTALL)
    assert listed
    shown = set()
    for word in re.findall(r"`([^`]+)`", listed.group(1)):
        head, _, subs = word.partition(" ")
        shown |= {f"{head} {sub}" for sub in subs.split("/")} if subs else {word}
    assert shown == safe


def test_every_setting_an_acp_client_can_set_is_named_with_its_variable() -> None:
    rows = {
        m.group(1): line
        for line in README.splitlines()
        if (m := re.match(r"^\| `(\w+)` \| ", line))
    }
    for rule in RULES:
        if rule.from_env:
            assert f"`{rule.env}`" in rows[rule.key], rule.key
    for client in ("agent_servers", "acp.json", "codecompanion", "agent-shell"):
        assert client in README, client
