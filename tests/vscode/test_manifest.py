"""The extension's settings are the server's settings: same keys, same defaults, same choices.

A user reads the defaults in VS Code's settings editor; if they drifted from what the server
does when a setting is absent, the editor would lie to them.
"""

from __future__ import annotations

import json

from kesi_lsp.catalog import LOCALES
from kesi_lsp.core.settings.agent import APPROVAL_MODES, SANDBOX_MODES, AgentSettings
from kesi_lsp.core.settings.parse import MCP_SERVERS_KEY, PERMISSIONS_KEY, RULES, parse_settings
from tests.vscode.rig import EXTENSION_DIR

MANIFEST = json.loads((EXTENSION_DIR / "package.json").read_text())
PROPERTIES = MANIFEST["contributes"]["configuration"]["properties"]

# What the server reads from `kesi.*`, less the API key: it stays in the environment
# (ANTHROPIC_API_KEY), since a key in settings.json would travel with Settings Sync. The base
# URL is declared (a proxy or gateway) but has no server default to compare with.
KEPT_OUT = {"apiKey"}
NO_DEFAULT = {"baseUrl"}
EXPOSED = {rule.key: rule.attr for rule in RULES if rule.key not in KEPT_OUT}
USER_ONLY = {
    "kesi.sandbox",
    "kesi.commandMemoryLimit",
    "kesi.sandboxNetwork",
    "kesi.sandboxNetworkAllow",
    "kesi.sandboxNetworkDeny",
    "kesi.baseUrl",
    "kesi.approvals",
    "kesi.permissions",
    "kesi.passEnv",
    "kesi.auditLog",
    "kesi.mcpServers",
}


def test_every_setting_the_server_reads_is_declared() -> None:
    assert {rule.key for rule in RULES} >= KEPT_OUT
    for key in EXPOSED:
        assert f"kesi.{key}" in PROPERTIES, f"the server reads kesi.{key}: declare it"


def test_defaults_match_the_server() -> None:
    defaults = AgentSettings()
    for key, attr in EXPOSED.items():
        declared = PROPERTIES[f"kesi.{key}"]
        if key in NO_DEFAULT:
            assert declared["default"] == "" and getattr(defaults, attr) is None
            continue
        default = getattr(defaults, attr)
        assert declared["default"] == (list(default) if isinstance(default, tuple) else default)
        assert len(declared.get("markdownDescription", declared.get("description", ""))) > 10


def test_a_project_cannot_set_the_sandbox_the_api_address_or_key() -> None:
    """Machine scope: VS Code ignores these in a workspace's or folder's settings.json, so a
    cloned repository can neither turn the sandbox off nor send the API key elsewhere."""
    for key in USER_ONLY:
        assert PROPERTIES[key]["scope"] == "machine", key
    assert "kesi.apiKey" not in PROPERTIES


def test_choices_match_the_server() -> None:
    assert tuple(PROPERTIES["kesi.sandbox"]["enum"]) == SANDBOX_MODES
    assert tuple(PROPERTIES["kesi.approvals"]["enum"]) == APPROVAL_MODES
    for key in ("kesi.sandbox", "kesi.approvals", "kesi.locale"):
        declared = PROPERTIES[key]
        assert len(declared.get("enumDescriptions", declared["enum"])) == len(declared["enum"])
    assert tuple(PROPERTIES["kesi.locale"]["enum"]) == LOCALES


def test_client_settings() -> None:
    assert PROPERTIES["kesi.serverPath"]["default"] == ""
    assert PROPERTIES["kesi.trace.server"]["enum"] == ["off", "messages", "verbose"]
    assert PROPERTIES["kesi.review"]["default"] == "diffEditor"  # the review shows the change
    assert PROPERTIES["kesi.review"]["enum"] == ["diffEditor", "refactorPreview"]
    assert set(PROPERTIES) == {f"kesi.{key}" for key in EXPOSED} | {
        f"kesi.{PERMISSIONS_KEY}",
        f"kesi.{MCP_SERVERS_KEY}",
        "kesi.serverPath",
        "kesi.review",
        "kesi.trace.server",
    }


def test_palette_titles() -> None:
    titles = {
        c["command"]: f"{c['category']}: {c['title']}" for c in MANIFEST["contributes"]["commands"]
    }
    assert titles["kesi.fixThis"] == "KeSi: Fix This"
    assert titles["kesi.ask"] == "KeSi: Ask"
    assert titles["kesi.cancel"] == "KeSi: Cancel"
    assert titles["kesi.reset"] == "KeSi: Reset"
    assert titles["kesi.cost"] == "KeSi: Show Cost"
    assert titles["kesi.permissions"] == "KeSi: Show Permissions"
    assert titles["kesi.revoke"] == "KeSi: Revoke Permissions"
    assert titles["kesi.compact"] == "KeSi: Compact Conversation"


def test_the_permission_rules_setting_is_declared_like_the_server_reads_it() -> None:
    """allow / ask / deny lists of strings, default none; the declared examples are rules the
    server accepts without a complaint."""
    declared = PROPERTIES["kesi.permissions"]
    assert declared["type"] == "object" and declared["default"] == {}
    assert set(declared["properties"]) == {"allow", "ask", "deny"}
    assert AgentSettings().permissions.rules == ()
    examples = {
        "allow": ["python -m pytest*", "npm test", "edit:docs/**"],
        "ask": ["git *", "edit:pyproject.toml"],
        "deny": ["git push*", "edit:migrations/**"],
    }
    for kind, patterns in examples.items():
        for pattern in patterns:
            assert pattern.replace('"', "") in declared["properties"][kind]["markdownDescription"]
    parsed = parse_settings({"permissions": examples})
    assert parsed.problems == () and len(parsed.settings.permissions.rules) == 7


def test_the_mcp_servers_setting_is_declared_like_the_server_reads_it() -> None:
    """An object of servers, default none, machine-scoped; its example is one the server
    reads without a complaint."""
    declared = PROPERTIES["kesi.mcpServers"]
    assert declared["type"] == "object" and declared["default"] == {}
    assert AgentSettings().mcp_servers == ()
    example = {"time": {"command": "uvx", "args": ["mcp-server-time"]}}
    assert '{"time": {"command": "uvx", "args": ["mcp-server-time"]}}' in declared[
        "markdownDescription"
    ].replace("\\", "")
    parsed = parse_settings({"mcpServers": example})
    assert parsed.problems == () and parsed.settings.mcp_servers[0].name == "time"


def _minimum(caret: str) -> tuple[int, ...]:
    assert caret.startswith(("^", "~")), caret
    return tuple(int(part) for part in caret[1:].split("."))


def test_engine_range_is_what_the_extension_is_built_against() -> None:
    """An older VS Code refuses to install the extension with its own one-line message ("not
    compatible with VS Code 1.80"), which is only true if `engines.vscode` is the oldest VS Code
    whose API the code compiles against (`@types/vscode`) and every runtime dependency accepts."""
    engine = _minimum(MANIFEST["engines"]["vscode"])
    types_version = _minimum(MANIFEST["devDependencies"]["@types/vscode"])
    assert engine[:2] == types_version[:2], "compile against the oldest supported API"
    lock = json.loads((EXTENSION_DIR / "package-lock.json").read_text())
    for name, package in lock["packages"].items():
        needed = package.get("engines", {}).get("vscode")
        if name and needed:
            assert _minimum(needed) <= engine, f"{name} needs VS Code {needed}"
