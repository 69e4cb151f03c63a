"""KeSi's two approval modes, offered both ways ACP has: `modes` with `session/set_mode`,
and the `configOptions` select with `session/set_config_option` (category `mode`).

Clients pick one: CodeCompanion 19.22 switches modes only through `configOptions`, Zed and
agent-shell through `modes`. Both name the same setting (`approvals`), so either switch is
seen by the other on the next answer.
"""

from __future__ import annotations

from typing import Final

from acp.schema import (
    SessionConfigOptionSelect,
    SessionConfigSelectOption,
    SessionMode,
    SessionModeState,
)

from kesi_lsp.catalog import text
from kesi_lsp.core import AgentSettings

MODE_OPTION: Final = "mode"
"""The config option id of the approval mode."""

_MODES: Final = (
    ("ask", "acp.mode.ask", "acp.mode.ask_about"),
    ("acceptEdits", "acp.mode.accept_edits", "acp.mode.accept_edits_about"),
)


def mode_state(settings: AgentSettings) -> SessionModeState:
    """The modes as a client's mode picker shows them."""
    locale = settings.locale
    modes = [
        SessionMode(id=mode, name=text(name, locale), description=text(about, locale))
        for mode, name, about in _MODES
    ]
    return SessionModeState(current_mode_id=settings.approvals, available_modes=modes)


def config_options(settings: AgentSettings) -> list[SessionConfigOptionSelect]:
    """The modes as a session config option (a select in the `mode` category)."""
    locale = settings.locale
    choices = [
        SessionConfigSelectOption(
            value=mode, name=text(name, locale), description=text(about, locale)
        )
        for mode, name, about in _MODES
    ]
    return [
        SessionConfigOptionSelect(
            id=MODE_OPTION,
            name=text("acp.mode.option", locale),
            category="mode",
            current_value=settings.approvals,
            options=choices,
            type="select",
        )
    ]
