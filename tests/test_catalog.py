"""Every sentence KeSi says exists in English and in the seed's Traditional Chinese."""

from __future__ import annotations

import string

import pytest

from kesi_lsp.catalog import LOCALES, MESSAGES, text


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_both_locales_present_with_same_placeholders(key: str) -> None:
    en, zh = MESSAGES[key]
    assert en.strip() and zh.strip(), key
    assert placeholders(en) == placeholders(zh), key


def test_unknown_key_fails_loudly() -> None:
    with pytest.raises(KeyError):
        text("no.such.key")


def test_locale_selects_wording() -> None:
    assert text("common.none", "en") == "(none)"
    assert text("common.none", "zh-TW") == "（無）"
    assert LOCALES == ("en", "zh-TW")
