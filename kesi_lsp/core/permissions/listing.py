"""How the permission rules in force are listed and worded (`kesi.permissions`, the refusals).

Apart from `rules.py`, which judges commands against the rules and so loads the classifier:
the server lists rules from its first request on, long before any command is judged.
"""

from __future__ import annotations

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.settings.permission_rules import PermissionRules, Rule

__all__ = ["describe_rule", "rule_fields", "rules_line"]


def rule_fields(rule: Rule, locale: Locale) -> dict[str, str]:
    """How a rule is named to the user: its pattern as written and its source, in words."""
    pattern = f"{rule.target}:{rule.pattern}" if rule.target != "command" else rule.pattern
    return {"pattern": pattern, "source": text(f"permissions.source.{rule.source}", locale)}


def describe_rule(rule: Rule) -> dict[str, str]:
    """One rule for `kesi.permissions`: kind, target (command or edit), pattern, source."""
    source = "initializationOptions" if rule.source == "init" else "userSettings"
    return {"kind": rule.kind, "target": rule.target, "pattern": rule.pattern, "source": source}


def rules_line(rules: PermissionRules, locale: Locale) -> str:
    """The `/permissions` line that lists the rules in force (or "(none)")."""
    items = [
        text(
            "permissions.rule_item",
            locale,
            kind=text(f"permissions.kind.{r.kind}", locale),
            **rule_fields(r, locale),
        )
        for r in rules.rules
    ]
    joined = text("common.list_sep", locale).join(items) or text("common.none", locale)
    return text("permissions.rules", locale, items=joined)
