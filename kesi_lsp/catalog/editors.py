"""How each editor names the command that starts a fresh conversation: key -> (English,
Traditional Chinese).

The seed says 「用 /reset」; an editor has no `/reset`, so every sentence that sends the user
there names the command the user has in *their* editor instead (VS Code's palette entry,
Neovim's user command, Emacs's `M-x` command, Helix's workspace command, an ACP client's new
thread). The front end knows the editor (LSP `clientInfo`, or ACP) and puts it in the settings;
these are the words filled in where a sentence says `{reset}`.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "editor.reset.vscode": ("“KeSi: Reset”", "「KeSi: Reset」"),
    "editor.reset.nvim": (":KeSiReset", "「:KeSiReset」"),
    "editor.reset.emacs": ("M-x kesi-reset", "「M-x kesi-reset」"),
    "editor.reset.helix": (
        ":lsp-workspace-command kesi.reset",
        "「:lsp-workspace-command kesi.reset」",
    ),
    "editor.reset.acp": ("a new thread", "新的對話串"),
    "editor.reset.lsp": ("the kesi.reset command", "「kesi.reset」指令"),
}
