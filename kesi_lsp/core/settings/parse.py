"""Loose settings in, a trusted `AgentSettings` out: the one validation every front end uses.

Settings arrive as JSON (the LSP server's `initializationOptions` and `workspace/configuration`
section `kesi`, the ACP adapter's `initialize` `_meta.kesi`) or as environment variables
(`KESI_MAX_TURNS=30` in the command an ACP client starts). Each value is checked here; a bad
one is reported in a sentence the user can act on and replaced by its default, so a typo never
crashes a front end and the core never sees a malformed value. Where the layers come from and
how a problem reaches the user is the front end's business; what is valid is decided once.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from kesi_lsp.catalog import Editor, Locale, is_locale, text
from kesi_lsp.core.settings.agent import APPROVAL_MODES, SANDBOX_MODES, AgentSettings
from kesi_lsp.core.settings.mcp_servers import ServerProblem, parse_servers
from kesi_lsp.core.settings.network import NETWORK_MODES, parse_patterns, split_patterns
from kesi_lsp.core.settings.permission_rules import parse_rules

log = logging.getLogger(__name__)

SECTION: Final = "kesi"
DEFAULTS: Final = AgentSettings()
ENV_PREFIX: Final = "KESI_"

Check = Callable[[object], bool]
Kind = Literal["text", "int", "number", "bool", "hosts", "names"]
_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _is_int(low: int, high: int) -> Check:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _is_number(low: float, high: float) -> Check:
    return lambda v: isinstance(v, int | float) and not isinstance(v, bool) and low < v <= high


def _is_text(v: object) -> bool:
    return isinstance(v, str) and v.strip() != ""


def _is_url(v: object) -> bool:
    return isinstance(v, str) and v.startswith(("http://", "https://"))


def _is_bool(v: object) -> bool:
    return isinstance(v, bool)


def _is_names(v: object) -> bool:
    """A list of environment variable names (`passEnv`)."""
    return isinstance(v, list | tuple) and all(isinstance(n, str) and _NAME.fullmatch(n) for n in v)


@dataclass(frozen=True)
class SettingRule:
    """One setting: its JSON key, the AgentSettings field, its check, what it expects (a
    catalog key), what kind of value an environment variable's text is read as, and whether it
    may come from the environment at all (the API key and address have the SDK's own
    ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL)."""

    key: str
    attr: str
    check: Check
    expected: str
    kind: Kind = "text"
    from_env: bool = True

    @property
    def env(self) -> str:
        """The environment variable of this setting: `maxTurns` -> `KESI_MAX_TURNS`."""
        return ENV_PREFIX + re.sub(r"(?<!^)([A-Z])", r"_\1", self.key).upper()


RULES: Final = (
    SettingRule("model", "model", _is_text, "settings.expect.model"),
    SettingRule(
        "maxTokens", "max_tokens", _is_int(1, 128_000), "settings.expect.max_tokens", "int"
    ),
    SettingRule("maxTurns", "max_turns", _is_int(1, 1000), "settings.expect.max_turns", "int"),
    SettingRule(
        "maxToolFailures",
        "max_tool_failures",
        _is_int(1, 100),
        "settings.expect.max_failures",
        "int",
    ),
    SettingRule(
        "commandTimeout",
        "command_timeout",
        _is_number(0, 3600),
        "settings.expect.timeout",
        "number",
    ),
    SettingRule(
        "taskTimeout",
        "task_timeout",
        _is_number(0, 86_400),
        "settings.expect.task_timeout",
        "number",
    ),
    SettingRule("sandbox", "sandbox", lambda v: v in SANDBOX_MODES, "settings.expect.sandbox"),
    SettingRule(
        "commandMemoryLimit",
        "command_memory_limit",
        lambda v: v == 0 or _is_int(64, 1 << 20)(v),
        "settings.expect.memory",
        "int",
    ),
    SettingRule(
        "sandboxNetwork",
        "sandbox_network",
        lambda v: v in NETWORK_MODES,
        "settings.expect.sandbox_network",
    ),
    SettingRule(
        "sandboxNetworkAllow", "network_allow", lambda v: True, "settings.expect.hosts", "hosts"
    ),
    SettingRule(
        "sandboxNetworkDeny", "network_deny", lambda v: True, "settings.expect.hosts", "hosts"
    ),
    SettingRule(
        "approvals", "approvals", lambda v: v in APPROVAL_MODES, "settings.expect.approvals"
    ),
    SettingRule("promptCaching", "prompt_caching", _is_bool, "settings.expect.bool", "bool"),
    SettingRule("contextTrimming", "context_trimming", _is_bool, "settings.expect.bool", "bool"),
    SettingRule("respectGitignore", "respect_gitignore", _is_bool, "settings.expect.bool", "bool"),
    SettingRule(
        "contextBudget",
        "context_budget",
        _is_int(1000, 2_000_000),
        "settings.expect.budget",
        "int",
    ),
    SettingRule("compaction", "compaction", _is_bool, "settings.expect.bool", "bool"),
    SettingRule(
        "streamIdleTimeout",
        "stream_idle_timeout",
        _is_number(0, 3600),
        "settings.expect.idle_timeout",
        "number",
    ),
    SettingRule(
        "searchMaxTurns",
        "search_max_turns",
        _is_int(2, 100),
        "settings.expect.search_turns",
        "int",
    ),
    SettingRule("locale", "locale", is_locale, "settings.expect.locale"),
    SettingRule("changeSets", "change_sets", _is_bool, "settings.expect.bool", "bool"),
    SettingRule("runEndMessage", "run_end_message", _is_bool, "settings.expect.bool", "bool"),
    SettingRule(
        "maxMessageMegabytes",
        "max_message_megabytes",
        _is_int(1, 4096),
        "settings.expect.message_size",
        "int",
    ),
    SettingRule("apiKey", "api_key", _is_text, "settings.expect.api_key", from_env=False),
    SettingRule("baseUrl", "base_url", _is_url, "settings.expect.base_url", from_env=False),
    SettingRule("passEnv", "pass_env", _is_names, "settings.expect.names", "names"),
    SettingRule("auditLog", "audit_log", _is_bool, "settings.expect.bool", "bool"),
)
PERMISSIONS_KEY: Final = "permissions"
"""The user's permission rules (`settings.permission_rules`): a JSON object of lists, so no
environment variable; its own checks say which entries are ignored."""
MCP_SERVERS_KEY: Final = "mcpServers"
"""The MCP servers (`settings.mcp_servers`): an object of servers, user-level only, like the
permission rules; each malformed server is left out with a sentence, the others stay."""
KNOWN_KEYS: Final = frozenset(rule.key for rule in RULES) | {PERMISSIONS_KEY, MCP_SERVERS_KEY}


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
class ParsedSettings:
    """Validated settings plus one sentence per rejected value."""

    settings: AgentSettings
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnvironmentSettings:
    """The settings an environment sets: `values` by JSON key, and `names`, the variable each
    came from (a problem names what the user wrote, `KESI_MAX_TURNS`, not `kesi.maxTurns`)."""

    values: Mapping[str, object]
    names: Mapping[str, str]


_TRUE: Final = frozenset({"true", "1", "yes", "on"})
_FALSE: Final = frozenset({"false", "0", "no", "off"})


def _from_text(raw: str, kind: Kind) -> object:
    """An environment variable's text as the value its setting takes; text that does not read
    as that kind stays text, so the check rejects it and the user sees what they wrote."""
    value = raw.strip()
    if kind == "int" and re.fullmatch(r"[+-]?\d+", value):
        return int(value)
    if kind == "number":
        try:
            return float(value)
        except ValueError:
            return raw
    if kind == "bool" and value.lower() in _TRUE | _FALSE:
        return value.lower() in _TRUE
    if kind == "names":  # KESI_PASS_ENV="GH_TOKEN NPM_TOKEN" or "GH_TOKEN,NPM_TOKEN"
        return re.split(r"[\s,]+", value)
    if kind == "hosts":
        return split_patterns(value)
    return raw


def environment_settings(environ: Mapping[str, str]) -> EnvironmentSettings:
    """The `KESI_*` variables of `environ` as a settings layer (an empty variable is unset)."""
    values: dict[str, object] = {}
    names: dict[str, str] = {}
    for rule in RULES:
        raw = environ.get(rule.env) if rule.from_env else None
        if raw is None or raw.strip() == "":
            continue
        values[rule.key] = _from_text(raw, rule.kind)
        names[rule.key] = rule.env
    return EnvironmentSettings(values, names)


def _trusted(value: object, kind: Kind) -> object:
    """A checked value as AgentSettings holds it (a number as float, names as a tuple)."""
    if kind == "number":
        return float(value)  # type: ignore[arg-type]
    if kind == "names":
        return tuple(dict.fromkeys(value))  # type: ignore[call-overload]
    return value


def _describe(value: object) -> str:
    """A setting's value as the user wrote it: JSON, cut short."""
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _problem(rule: SettingRule, value: object, name: str, locale: Locale) -> str:
    default = getattr(DEFAULTS, rule.attr)
    return text(
        "settings.invalid",
        locale,
        key=name,
        expected=text(rule.expected, locale),
        value=_describe(value),
        default=_describe(default) if default is not None else text("common.none", locale),
    )


def _server_problem(problem: ServerProblem, key: str, locale: Locale) -> str:
    why = text(problem.why, locale, detail=problem.detail)
    return text("settings.mcp_server_invalid", locale, key=key, name=problem.name, why=why)


def _pattern_problem(name: str, pattern: str, why: str, locale: Locale) -> str:
    return text(
        "settings.host_pattern_invalid",
        locale,
        key=name,
        pattern=pattern,
        why=text(f"settings.host_problem.{why}", locale),
    )


def parse_settings(
    *layers: Mapping[str, object] | EnvironmentSettings,
    sources: Sequence[str] = (),
    quiet: Collection[str] = (),
    editor: Editor = "lsp",
) -> ParsedSettings:
    """Validate `layers` (later ones win; JSON null means "not set") into AgentSettings.

    A problem names the setting as the user wrote it: `kesi.<key>` for a JSON layer, the
    variable for an `EnvironmentSettings` layer. `sources` names each layer ("init", "user"):
    the permission rules say where they came from. Keys in `quiet` are a client's own (VS Code
    sends `serverPath` with the section) and are not logged as unknown. `editor` is the front
    end's, never the user's: which editor's command names the sentences use.
    """
    merged: dict[str, object] = {}
    spelled: dict[str, str] = {}
    source = servers_source = "user"
    for position, layer in enumerate(layers):
        values = layer.values if isinstance(layer, EnvironmentSettings) else layer
        if values.get(PERMISSIONS_KEY) is not None and position < len(sources):
            source = sources[position]
        if values.get(MCP_SERVERS_KEY) is not None and position < len(sources):
            servers_source = sources[position]
        for key, value in values.items():
            if value is None:
                continue
            merged[key] = value
            named = layer.names.get(key) if isinstance(layer, EnvironmentSettings) else None
            spelled[key] = named or f"{SECTION}.{key}"
    locale: Locale = "en"
    if is_locale(merged.get("locale")):
        locale = merged["locale"]  # type: ignore[assignment]
    values_ok: dict[str, object] = {"editor": editor}
    problems: list[str] = []
    for rule in RULES:
        if rule.key not in merged:
            continue
        value = merged[rule.key]
        if rule.kind == "hosts":
            values_ok[rule.attr], bad = parse_patterns(value)
            problems += [_pattern_problem(spelled[rule.key], p, why, locale) for p, why in bad]
            continue
        if rule.check(value):
            values_ok[rule.attr] = _trusted(value, rule.kind)
            continue
        problems.append(_problem(rule, value, spelled[rule.key], locale))
    if PERMISSIONS_KEY in merged:
        rules, bad = parse_rules(merged[PERMISSIONS_KEY], source)
        values_ok["permissions"] = rules
        problems += [
            text(
                "settings.permission_rule_invalid",
                locale,
                key=spelled[PERMISSIONS_KEY],
                rule=_describe(rule),
                why=text(f"settings.rule_problem.{why}", locale),
            )
            for rule, why in bad
        ]
    if MCP_SERVERS_KEY in merged:
        servers, left_out = parse_servers(merged[MCP_SERVERS_KEY], servers_source)
        values_ok["mcp_servers"] = servers
        problems += [_server_problem(p, spelled[MCP_SERVERS_KEY], locale) for p in left_out]
    for key in sorted(set(merged) - KNOWN_KEYS - set(quiet)):
        log.info("ignoring unknown setting %s", spelled[key])
    return ParsedSettings(replace(DEFAULTS, **values_ok), tuple(problems))  # type: ignore[arg-type]
