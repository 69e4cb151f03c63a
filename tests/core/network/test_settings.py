"""The sandbox's network as settings: the mode, the host patterns, where they may come from."""

from __future__ import annotations

from kesi_lsp.core.settings.network import host_verdict, parse_patterns
from kesi_lsp.core.settings.parse import environment_settings, parse_settings
from kesi_lsp.lsp.config import ConfigStore
from kesi_lsp.lsp.lifecycle import _without_credentials


def test_ask_is_the_default_and_the_lists_are_empty() -> None:
    settings = parse_settings({}).settings
    assert settings.sandbox_network == "ask"
    assert settings.network_allow == () and settings.network_deny == ()


def test_the_mode_and_lists_are_read_and_normalized() -> None:
    parsed = parse_settings(
        {
            "sandboxNetwork": "allowList",
            "sandboxNetworkAllow": ["PyPI.org.", "*.pythonhosted.org", "pypi.org"],
            "sandboxNetworkDeny": ["evil.example"],
        }
    )
    assert parsed.problems == ()
    assert parsed.settings.sandbox_network == "allowList"
    assert parsed.settings.network_allow == ("pypi.org", "*.pythonhosted.org")
    assert parsed.settings.network_deny == ("evil.example",)


def test_a_bad_pattern_is_named_and_the_others_stay() -> None:
    parsed = parse_settings({"sandboxNetworkAllow": ["github.com", "http://x/", "", 3]})
    assert parsed.settings.network_allow == ("github.com",)
    assert len(parsed.problems) == 3
    assert "kesi.sandboxNetworkAllow" in parsed.problems[0]
    assert "http://x/" in parsed.problems[0] and "the others stay in force" in parsed.problems[0]


def test_a_bad_mode_falls_back_to_ask_and_says_so() -> None:
    parsed = parse_settings({"sandboxNetwork": "open"})
    assert parsed.settings.sandbox_network == "ask"
    assert "kesi.sandboxNetwork" in parsed.problems[0] and '"open"' in parsed.problems[0]


def test_the_environment_takes_comma_separated_lists() -> None:
    layer = environment_settings(
        {"KESI_SANDBOX_NETWORK": "off", "KESI_SANDBOX_NETWORK_ALLOW": "pypi.org, github.com"}
    )
    settings = parse_settings(layer).settings
    assert settings.sandbox_network == "off"
    assert settings.network_allow == ("pypi.org", "github.com")


def test_deny_beats_allow_and_grants_and_stars_name_subdomains_only() -> None:
    allow, _ = parse_patterns(["*.pythonhosted.org", "*"])
    deny, _ = parse_patterns(["*.evil.example"])
    assert host_verdict("files.pythonhosted.org", allow[:1], deny) == "allow"
    assert host_verdict("pythonhosted.org", allow[:1], deny) == "unlisted"
    assert host_verdict("a.evil.example", allow, deny, granted=["a.evil.example"]) == "deny"
    assert host_verdict("anything.org", allow, deny) == "allow"
    assert host_verdict("example.org", (), (), granted=["example.org"]) == "allow"


def test_a_folder_cannot_open_the_network() -> None:
    """A cloned repository's `.vscode/settings.json` arrives as a folder-scoped answer: its
    network settings are dropped, the user's stay."""
    store = ConfigStore(init_options={"sandboxNetwork": "ask"})
    folder = {"sandboxNetwork": "off", "sandboxNetworkAllow": ["*"], "maxTurns": 7}
    store.folders["file:///w"] = _without_credentials(folder, "file:///w")
    settings = store.settings_for("file:///w").settings
    assert settings.sandbox_network == "ask" and settings.network_allow == ()
    assert settings.max_turns == 7
