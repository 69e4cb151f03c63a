"""Generated commands: wrapped red lines stay denied; nothing dangerous is ever allowed."""

from __future__ import annotations

import shlex
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kesi_lsp.core.permissions import classify
from kesi_lsp.core.permissions.policy import SAFE_COMMANDS
from tests.budget import examples

ROOT = Path("/nonexistent-kesi/home/alice/proj")
HOME = Path("/nonexistent-kesi/home/alice")

PREFIX_WRAPPERS = [
    "timeout 5",
    "timeout -s KILL 9",
    "nice -n 1",
    "nohup",
    "env",
    "env -i",
    "env -u X",
    "command",
    "exec",
    "xargs",
    "xargs -n 1",
    "stdbuf -oL",
    "setsid",
    "time",
    "ionice -c 3",
    "busybox",
    "FOO=1",
]
STRING_WRAPPERS = ["sh -c", "bash -c", "bash -lc", "zsh -c", "eval", "env -S", "watch"]
RED_LINES = ["rm -rf /", "rm -rf ~", "rm -rf $HOME", "sudo id", "su -", "doas sh", "rm -fr //"]
LEADS = ["", "ls; ", "ls && ", "true || ", "ls | ", "echo hi\n", "(", "{ "]


@st.composite
def wrapped(draw: st.DrawFn) -> str:
    command = draw(st.sampled_from(RED_LINES))
    for _ in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            command = f"{draw(st.sampled_from(PREFIX_WRAPPERS))} {command}"
        else:
            command = f"{draw(st.sampled_from(STRING_WRAPPERS))} {shlex.quote(command)}"
    lead = draw(st.sampled_from(LEADS))
    tail = {"(": ")", "{ ": "; }"}.get(lead, "")
    return f"{lead}{command}{tail}"


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wrapped())
def test_red_lines_stay_denied_behind_any_wrapping(command: str) -> None:
    assert classify(command, ROOT, HOME).kind == "deny", command


FRAGMENTS = [
    "rm", "sudo", "ls", "cat", "git", "status", "log", "echo", "-rf", "/", "~", "..", ".env",
    "README.md", " ", " ", ";", "&&", "||", "|", "&", "'", '"', "\\", "$(", ")", "`", "\n", "\r",
    "#", "=", "-c", "sh", "--output=x", "\t", "ｓ", "\u200b",
]  # fmt: skip
SAFE_HEADS = {safe[0] for safe in SAFE_COMMANDS}


def shlex_segments(command: str) -> list[list[str]]:
    """An independent reading: Python's shlex with shell punctuation."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
    lexer.whitespace = " \t\n"
    lexer.whitespace_split = True
    segments: list[list[str]] = [[]]
    for token in lexer:
        if set(token) <= set(";&|"):
            segments.append([])
        else:
            segments[-1].append(token)
    return [s for s in segments if s]


@settings(max_examples=examples(1500), deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join))
def test_an_allowed_command_only_runs_read_only_commands(command: str) -> None:
    verdict = classify(command, ROOT, HOME)
    if verdict.kind != "allow":
        return
    segments = shlex_segments(command.replace("\n", ";"))
    assert segments
    for segment in segments:
        assert segment[0] in SAFE_HEADS, (command, segment)
        if segment[0] == "git":
            assert ("git", segment[1]) in SAFE_COMMANDS


@settings(max_examples=examples(500), deadline=None)
@given(st.text(max_size=80))
def test_any_text_gets_a_verdict_without_raising(command: str) -> None:
    verdict = classify(command, ROOT, HOME)
    assert verdict.kind in ("allow", "ask", "deny")
    assert verdict.reason
