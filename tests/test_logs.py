"""Where the servers' log lines go (issue 30 item 12: ACP clients show the agent's stderr)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from kesi_lsp import cli
from kesi_lsp.logs import configure_logging


@pytest.fixture
def clean_root() -> Iterator[None]:
    root = logging.getLogger()
    kept, level = list(root.handlers), root.level
    yield
    for handler in root.handlers[len(kept) :]:
        handler.close()
    root.handlers[:] = kept
    root.setLevel(level)


def _log_both() -> None:
    logging.getLogger("kesi_lsp.acp.agent").info("session s1 in /tmp/p")
    logging.getLogger("kesi_lsp.acp.agent").warning("the client closed the pipe")


def test_the_acp_server_writes_only_warnings_to_stderr_and_info_to_its_log_file(
    clean_root: None, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log_file = tmp_path / "kesi.log"
    configure_logging(False, str(log_file), quiet_stderr=True)
    _log_both()
    stderr = capsys.readouterr().err
    assert "the client closed the pipe" in stderr and "session s1" not in stderr
    kept = log_file.read_text(encoding="utf-8")
    assert "session s1" in kept and "the client closed the pipe" in kept


def test_verbose_acp_and_the_lsp_server_keep_info_on_stderr(
    clean_root: None, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging(True, None, quiet_stderr=True)
    _log_both()
    assert "session s1" in capsys.readouterr().err


def test_kesi_lsp_acp_asks_for_a_quiet_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    def configure(verbose: bool, log_file: str | None, *, quiet_stderr: bool = False) -> None:
        seen.update(verbose=verbose, quiet=quiet_stderr)

    monkeypatch.setattr("kesi_lsp.logs.configure_logging", configure)
    monkeypatch.setattr("kesi_lsp.acp.app.serve", lambda args: 0)
    assert cli.main(["acp"]) == 0
    assert seen == {"verbose": False, "quiet": True}


def test_the_log_file_holds_markers_not_secrets(
    clean_root: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29: the server's log file passes the tools' redactor (token shapes and the values of
    the server's own credential variables), and an apiKey setting is masked whatever its shape."""
    github = "ghp_" + "aB3dE5fG7hJ9" * 3
    monkeypatch.setenv("KESI_TEST_DEPLOY_TOKEN", "deploy-value-987654")
    log_file = tmp_path / "kesi.log"
    configure_logging(False, str(log_file))
    log = logging.getLogger("kesi_lsp.test")
    log.info("remote https://x:%s@github.com/o/r.git", github)
    log.info("deploying with deploy-value-987654")
    log.info('settings {"apiKey": "not-a-known-shape"}')
    kept = log_file.read_text(encoding="utf-8")
    assert github not in kept and "deploy-value-987654" not in kept
    assert "not-a-known-shape" not in kept
    assert "[redacted: GitHub token]" in kept
    assert "[redacted: value of KESI_TEST_DEPLOY_TOKEN]" in kept
    assert '"apiKey": "***"' in kept
