"""Turn the editor's loose `kesi.*` settings into a trusted `AgentSettings`.

Settings arrive as JSON from three places (design §2.1): `initializationOptions`, the
`workspace/configuration` section `kesi` (per workspace folder), and
`workspace/didChangeConfiguration`. Each value is checked here; a bad one is reported in a
sentence the user can act on and replaced by its default, so a typo never crashes the server
and the core never sees a malformed value.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from kesi_lsp.catalog import Locale, is_locale, text
from kesi_lsp.core import APPROVAL_MODES, SANDBOX_MODES, AgentSettings, parse_rules

log = logging.getLogger(__name__)

SECTION: Final = "kesi"
DEFAULTS: Final = AgentSettings()

Check = Callable[[object], bool]


def _is_int(low: int, high: int) -> Check:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _is_number(low: float, high: float) -> Check:
    return lambda v: isinstance(v, int | float) and not isinstance(v, bool) and low < v <= high


def _is_text(v: object) -> bool:
    return isinstance(v, str) and v.strip() != ""


def _is_url(v: object) -> bool:
    return isinstance(v, str) and v.startswith(("http://", "https://"))


@dataclass(frozen=True)
class Rule:
    """One setting: its JSON key, the AgentSettings field, its check and what it expects."""

    key: str
    attr: str
    check: Check
    expected: str  # catalog key describing a valid value


RULES: Final = (
    Rule("model", "model", _is_text, "lsp.expect.model"),
    Rule("maxTokens", "max_tokens", _is_int(1, 128_000), "lsp.expect.max_tokens"),
    Rule("maxTurns", "max_turns", _is_int(1, 1000), "lsp.expect.max_turns"),
    Rule("maxToolFailures", "max_tool_failures", _is_int(1, 100), "lsp.expect.max_failures"),
    Rule("commandTimeout", "command_timeout", _is_number(0, 3600), "lsp.expect.timeout"),
    Rule("sandbox", "sandbox", lambda v: v in SANDBOX_MODES, "lsp.expect.sandbox"),
    Rule("approvals", "approvals", lambda v: v in APPROVAL_MODES, "lsp.expect.approvals"),
    Rule("promptCaching", "prompt_caching", lambda v: isinstance(v, bool), "lsp.expect.bool"),
    Rule("contextTrimming", "context_trimming", lambda v: isinstance(v, bool), "lsp.expect.bool"),
    Rule("contextBudget", "context_budget", _is_int(1000, 2_000_000), "lsp.expect.budget"),
    Rule("locale", "locale", is_locale, "lsp.expect.locale"),
    Rule("changeSets", "change_sets", lambda v: isinstance(v, bool), "lsp.expect.bool"),
    Rule("apiKey", "api_key", _is_text, "lsp.expect.api_key"),
    Rule("baseUrl", "base_url", _is_url, "lsp.expect.base_url"),
)
PERMISSIONS_KEY: Final = "permissions"
KNOWN_KEYS: Final = frozenset(rule.key for rule in RULES) | {PERMISSIONS_KEY}
# Settings the editor plugins read themselves (VS Code's `kesi.serverPath`, `kesi.review`,
# `kesi.trace.server`); they arrive with the section and are nobody's typo.
CLIENT_KEYS: Final = frozenset({"serverPath", "review", "trace"})


def kesi_section(raw: object) -> Mapping[str, object]:
    """Return the `kesi` settings inside `raw`, accepting `{"kesi": {...}}` or a flat object."""
    if not isinstance(raw, Mapping):
        return {}
    inner = raw.get(SECTION)
    if isinstance(inner, Mapping):
        return inner
    if any(key in KNOWN_KEYS for key in raw):
        return raw
    return {}


@dataclass(frozen=True)
class Parsed:
    """Validated settings plus one sentence per rejected value."""

    settings: AgentSettings
    problems: tuple[str, ...] = ()


def _describe(value: object) -> str:
    """A setting's value as the user wrote it: JSON, cut short."""
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def parse_settings(*layers: Mapping[str, object], sources: Sequence[str] = ()) -> Parsed:
    """Validate `layers` (later ones win; JSON null means "not set") into AgentSettings.

    `sources` names each layer ("init", "user"): the permission rules say where they came from.
    """
    merged: dict[str, object] = {}
    source = "user"
    for position, layer in enumerate(layers):
        merged.update({k: v for k, v in layer.items() if v is not None})
        if layer.get(PERMISSIONS_KEY) is not None and position < len(sources):
            source = sources[position]
    locale: Locale = "en"
    if is_locale(merged.get("locale")):
        locale = merged["locale"]  # type: ignore[assignment]
    values: dict[str, object] = {}
    problems: list[str] = []
    for rule in RULES:
        if rule.key not in merged:
            continue
        value = merged[rule.key]
        if rule.check(value):
            values[rule.attr] = float(value) if rule.attr == "command_timeout" else value  # type: ignore[arg-type]
            continue
        default = getattr(DEFAULTS, rule.attr)
        problems.append(
            text(
                "lsp.setting_invalid",
                locale,
                key=f"{SECTION}.{rule.key}",
                expected=text(rule.expected, locale),
                value=_describe(value),
                default=_describe(default) if default is not None else text("common.none", locale),
            )
        )
    if PERMISSIONS_KEY in merged:
        rules, bad = parse_rules(merged[PERMISSIONS_KEY], source)
        values["permissions"] = rules
        problems += [
            text(
                "lsp.permission_rule_invalid",
                locale,
                key=f"{SECTION}.{PERMISSIONS_KEY}",
                rule=_describe(rule),
                why=text(f"lsp.rule_problem.{why}", locale),
            )
            for rule, why in bad
        ]
    for key in sorted(set(merged) - KNOWN_KEYS - CLIENT_KEYS):
        log.info("ignoring unknown setting %s.%s", SECTION, key)
    return Parsed(replace(DEFAULTS, **values), tuple(problems))  # type: ignore[arg-type]


@dataclass
class ConfigStore:
    """Where each layer of settings currently stands, per workspace folder.

    Layers, later ones winning: `initializationOptions`; `workspace`, the unscoped answer of
    `workspace/configuration` (no folder open) or what a client without that request pushed in
    `didChangeConfiguration`; `folders`, the answer for each folder URI.
    """

    init_options: Mapping[str, object] = field(default_factory=dict)
    workspace: Mapping[str, object] = field(default_factory=dict)
    folders: dict[str, Mapping[str, object]] = field(default_factory=dict)
    _reported: set[str] = field(default_factory=set)

    def settings_for(self, folder_uri: str | None) -> Parsed:
        """The settings a run in `folder_uri` uses (None: no folder-specific layer)."""
        layers = [self.init_options, self.workspace]
        if folder_uri is not None:
            layers.append(self.folders.get(folder_uri, {}))
        return parse_settings(*layers, sources=("init", "user", "user"))

    def new_problems(self, parsed: Parsed) -> list[str]:
        """Problems not reported yet: the user hears about each bad value once, not per pull."""
        fresh = [p for p in parsed.problems if p not in self._reported]
        self._reported.update(fresh)
        return fresh

    def forget_reported(self) -> None:
        """After a settings change, report a still-bad value again (the user just looked)."""
        self._reported.clear()
