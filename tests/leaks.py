"""What the secrets tests leak (issue 29): fake credentials of the real shapes, a file that
holds two of them, the scripted model that prints it and writes the third into a command of
its own, and the check that a text holds none of them.

Shared by the LSP and ACP end-to-end tests, so both front ends are held to the same leak.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kesi_lsp.scripted_api import reply, script, tool_use

# Real shapes, fake values: `sk-ant-api03-` + 95 base64url characters ending `AA`; `ghp_` + 36
# base62; `github_pat_` + 22 + `_` + 59.
ANTHROPIC = "sk-ant-api03-" + "Zx9Yw8Vu7Ts6-Rq5Po4_Nm3L" * 3 + "kJ2iH1gF0eD9cB8aZ7yX6" + "AA"
GITHUB = "ghp_" + "aB3dE5fG7hJ9kL2m" * 2 + "Np4Q"
FINE_GRAINED = "github_pat_11ABCDEFG0aZ3bY4cX5dW6_" + "Qr7St8Uv9Wx0Yz1Ab2Cd3Ef4" * 2 + "Gh5Ij6Kl7Mn"
SECRETS = (ANTHROPIC, GITHUB, FINE_GRAINED)
MARKERS = ("[redacted: Anthropic API key]", "[redacted: GitHub token]")
ECHO = f"echo deploying with {FINE_GRAINED}"
ECHOED = "echo deploying with [redacted: GitHub token]"
ALLOW = ["cat *", "echo *"]
"""Rules that let both commands run (Helix cannot answer a prompt, vim-lsp answers null)."""


def leaky_script() -> list[Any]:
    """`cat leak.txt` (the key and the token), `echo` with the fine-grained token, a word."""
    return script(
        reply("Reading the settings.", tool_use("run_command", {"command": "cat leak.txt"})),
        reply(
            tool_use("run_command", {"command": ECHO}, id="toolu_echo"),
            expect={"last_tool_result_contains": MARKERS[0]},
        ),
        reply("Both are set.", expect={"last_tool_result_contains": MARKERS[1]}),
    )


def leaky(folder: Path) -> Path:
    """`folder` with `leak.txt`: the GitHub token, then the Anthropic key (the last line is
    what a command's one-line summary shows)."""
    (folder / "leak.txt").write_text(
        f"GH_TOKEN={GITHUB}\nANTHROPIC_API_KEY={ANTHROPIC}\n", encoding="utf-8"
    )
    return folder


def assert_only_markers(where: str, text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{where} holds {secret[:16]}…"
