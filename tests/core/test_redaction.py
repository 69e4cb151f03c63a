"""The redactor (issue 29): real-format fake tokens go, near misses stay, and no tool leaks.

The fake tokens are assembled at run time (prefix + filler) so this file holds no string a
secret scanner would flag; each has the documented shape of its kind.
"""

from __future__ import annotations

import base64
import hashlib
import os
import uuid
from pathlib import Path

import pytest

from kesi_lsp.core.redaction import Redactor, redact
from kesi_lsp.core.redaction.values import redact_reply
from kesi_lsp.core.tools import ToolResult
from tests.core.workspace import make_workspace

B62 = "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xYz"


def filler(n: int, alphabet: str = B62) -> str:
    return (alphabet * (n // len(alphabet) + 1))[:n]


PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    + filler(70)
    + "\n"
    + filler(40)
    + "\n-----END OPENSSH PRIVATE KEY-----"
)

TOKENS = [
    ("sk-ant-api03-" + filler(93) + "AA", "Anthropic API key"),
    ("sk-ant-admin01-" + filler(93) + "AA", "Anthropic API key"),
    ("sk-proj-" + filler(120, B62 + "_-"), "OpenAI API key"),
    ("sk-" + filler(20) + "T3BlbkFJ" + filler(20), "OpenAI API key"),
    ("ghp_" + filler(36), "GitHub token"),
    ("gho_" + filler(36), "GitHub token"),
    ("ghs_" + filler(36), "GitHub token"),
    ("github_pat_11" + filler(20) + "_" + filler(59), "GitHub token"),
    ("glpat-" + filler(20), "GitLab token"),
    ("xoxb-1234567890-1234567890123-" + filler(24), "Slack token"),
    ("xoxp-" + filler(40, "0123456789-"), "Slack token"),
    ("AKIA" + filler(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), "AWS access key"),
    ("AIza" + filler(35, B62 + "_-"), "Google API key"),
    ("sk_live_" + filler(24), "Stripe key"),
    ("rk_test_" + filler(24), "Stripe key"),
    ("npm_" + filler(36), "npm token"),
    (
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + filler(43, B62 + "_-"),
        "JWT",
    ),
    (PEM, "private key"),
]


@pytest.mark.parametrize(("token", "kind"), TOKENS, ids=[kind for _, kind in TOKENS])
def test_each_token_format_becomes_its_marker(token: str, kind: str) -> None:
    line = f"before {token} after"
    assert redact(line, {}, "en") == f"before [redacted: {kind}] after"


def test_the_marker_speaks_the_locale() -> None:
    token = "ghp_" + filler(36)
    assert redact(f"x={token}", {}, "zh-TW") == "x=[已遮蔽：GitHub 權杖]"


def test_a_url_keeps_its_host_and_user_but_not_the_password() -> None:
    line = "origin\thttps://deploy:hunter2-Pa55@git.example.com/team/app.git (fetch)"
    expected = "origin\thttps://deploy:[redacted: password]@git.example.com/team/app.git (fetch)"
    assert redact(line, {}, "en") == expected
    pg = "postgres://app:s3cr3t@db:5432/main"
    assert redact(pg, {}, "en") == "postgres://app:[redacted: password]@db:5432/main"


def test_an_aws_secret_key_next_to_its_label() -> None:
    secret = filler(40, B62 + "/+")
    for line in (
        f"aws_secret_access_key = {secret}",
        f'AWS_SECRET_ACCESS_KEY="{secret}"',
        f"aws_secret_key: {secret}",
    ):
        assert secret not in redact(line, {}, "en")
        assert "[redacted: AWS secret key]" in redact(line, {}, "en")


def test_values_of_the_servers_credential_variables() -> None:
    environ = {"MY_SERVICE_TOKEN": "plain-looking-value-42", "HOME": "/home/someone"}
    line = "config: token=plain-looking-value-42 home=/home/someone"
    expected = "config: token=[redacted: value of MY_SERVICE_TOKEN] home=/home/someone"
    assert redact(line, environ, "en") == expected


def test_short_values_are_not_hunted() -> None:
    assert redact("debug is on", {"DEBUG_TOKEN": "on"}, "en") == "debug is on"


NEAR_MISSES = [
    "commit " + hashlib.sha1(b"x").hexdigest(),
    "id " + str(uuid.UUID(int=0x1234_5678_9ABC_DEF0_1234_5678_9ABC_DEF0)),
    "sha256 " + hashlib.sha256(b"x").hexdigest() + hashlib.sha256(b"y").hexdigest(),
    "data:image/png;base64," + base64.b64encode(bytes(range(256)) * 40).decode(),
    "git@github.com:owner/repo.git",
    "https://github.com/owner/repo.git",
    "sk-learn and scikit-learn, task-ant-colony",
    "the ghp_ prefix and github_pat_ are GitHub's",
    "AKIA is the prefix of an access key id",
    'eyJ is how base64 of {" begins',
    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n-----END PUBLIC KEY-----",
    "http://localhost:8080/path@v2",
    "pk_live_" + filler(24),
]


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_misses_stay(line: str) -> None:
    assert redact(line, {}, "en") == line


def test_text_without_secrets_is_returned_as_is() -> None:
    content = "ordinary output\n" * 1000
    assert Redactor({}, "en")(content) is content


async def test_a_command_printing_tokens_reaches_nobody(tmp_path: Path) -> None:
    anthropic = "sk-ant-api03-" + filler(93) + "AA"
    github = "ghp_" + filler(36)
    environ = {"PATH": os.environ.get("PATH", ""), "DEPLOY_SECRET": "deploy-value-123456"}
    ws = make_workspace(tmp_path, environ=environ)
    ws.write("leak.txt", f"key={anthropic}\ntoken={github}\nsecret=deploy-value-123456\n")
    expected = (
        "key=[redacted: Anthropic API key]\ntoken=[redacted: GitHub token]\n"
        "secret=[redacted: value of DEPLOY_SECRET]\n"
    )
    assert await ws.call("run_command", command="cat leak.txt") == ToolResult(
        expected + "(exit code 0)"
    )
    read = await ws.call("read_file", file_path="leak.txt")
    assert anthropic not in read.text and github not in read.text
    assert "[redacted: GitHub token]" in read.text
    grep = await ws.call("grep", pattern="token=")
    assert github not in grep.text and "[redacted: GitHub token]" in grep.text


def test_a_reply_keeps_its_signed_thinking_and_loses_its_tokens() -> None:
    """The history's copy of a reply: text and tool input redacted, a thinking block as it came
    (the API checks its signature against its text)."""
    token = "ghp_" + filler(36)
    thinking = {"type": "thinking", "thinking": f"the user has {token}", "signature": "c2ln"}
    reply = [
        thinking,
        {"type": "text", "text": f"Using {token}."},
        {"type": "tool_use", "id": "t1", "name": "run_command", "input": {"command": token}},
    ]
    kept = redact_reply(reply, Redactor({}, "en"))
    assert kept[0] is thinking
    assert kept[1] == {"type": "text", "text": "Using [redacted: GitHub token]."}
    assert kept[2]["input"] == {"command": "[redacted: GitHub token]"}
    assert reply[2]["input"] == {"command": token}  # what the tool runs is untouched
