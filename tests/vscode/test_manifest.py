"""The extension's settings are the server's settings: same keys, same defaults, same choices.

A user reads the defaults in VS Code's settings editor; if they drifted from what the server
does when a setting is absent, the editor would lie to them.
"""

from __future__ import annotations

import json
from dataclasses import fields

from kesi_lsp.catalog import LOCALES
from kesi_lsp.core.settings import SANDBOX_MODES, AgentSettings
from tests.vscode.rig import EXTENSION_DIR

MANIFEST = json.loads((EXTENSION_DIR / "package.json").read_text())
PROPERTIES = MANIFEST["contributes"]["configuration"]["properties"]

# AgentSettings fields a user sets in VS Code, by their camelCase setting name. The API key
# and base URL stay in the environment (ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL): a key in
# settings.json would travel with Settings Sync.
EXPOSED = {
    "model": "model",
    "maxTokens": "max_tokens",
    "maxTurns": "max_turns",
    "maxToolFailures": "max_tool_failures",
    "commandTimeout": "command_timeout",
    "sandbox": "sandbox",
    "promptCaching": "prompt_caching",
    "locale": "locale",
}
# Context trimming's knobs (kesi_lsp.core.trim) are core settings for now: on by default, used
# by the benchmarks and tests; whether editors expose them is for kesi_lsp.lsp.config to decide.
KEPT_OUT = {"api_key", "base_url", "context_trimming", "context_budget"}


def test_every_agent_setting_is_exposed_or_deliberately_kept_out() -> None:
    assert {f.name for f in fields(AgentSettings)} == set(EXPOSED.values()) | KEPT_OUT


def test_defaults_match_the_server() -> None:
    defaults = AgentSettings()
    for key, attr in EXPOSED.items():
        declared = PROPERTIES[f"kesi.{key}"]
        assert declared["default"] == getattr(defaults, attr), key
        assert len(declared.get("markdownDescription", declared.get("description", ""))) > 10


def test_choices_match_the_server() -> None:
    assert tuple(PROPERTIES["kesi.sandbox"]["enum"]) == SANDBOX_MODES
    assert tuple(PROPERTIES["kesi.locale"]["enum"]) == LOCALES


def test_client_settings() -> None:
    assert PROPERTIES["kesi.serverPath"]["default"] == ""
    assert PROPERTIES["kesi.trace.server"]["enum"] == ["off", "messages", "verbose"]
    assert PROPERTIES["kesi.review"]["default"] == "refactorPreview"
    assert PROPERTIES["kesi.review"]["enum"] == ["refactorPreview", "diffEditor"]
    assert set(PROPERTIES) == {f"kesi.{key}" for key in EXPOSED} | {
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
