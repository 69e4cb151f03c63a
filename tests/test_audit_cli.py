"""`kesi-lsp audit` (issue 29): a folder's audit log on the terminal, in the server's words or as
JSON lines; `--since` and `--limit` narrow it; bad input is one clear sentence and exit 2, and
reading never changes the log."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kesi_lsp.cli import main
from kesi_lsp.core import AuditLog, AuditTrail, audit_directory, parse_since, redactor_for

GITHUB = "ghp_" + "aB3dE5fG7hJ9" * 3


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


def write(root: Path, *records: dict[str, object]) -> AuditLog:
    """Records as a run writes them (through the trail: redacted), at the times they name."""
    directory = audit_directory({"XDG_STATE_HOME": str(root.parent / "state")})
    assert directory is not None
    log = AuditLog(directory)
    trail = AuditTrail(log, root, "run-1", redactor_for({}, "en"))
    trail.command(f"echo {GITHUB}", verdict="allow", reason="prints", decided_by="classifier")
    for record in records:
        log.append(root, record)
    assert log.flush()
    return log


def old(hours: float, command: str) -> dict[str, object]:
    when = datetime.datetime.now().astimezone() - datetime.timedelta(hours=hours)
    return {
        "time": when.isoformat(),
        "kind": "command",
        "run": "run-0",
        "command": command,
        "verdict": "deny",
        "reason": "deletes the repository",
        "decided_by": "red_line",
    }


@pytest.fixture
def folder(tmp_path: Path, state: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


def test_the_lines_are_the_servers_words_and_the_secret_is_a_marker(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(folder, old(30, "rm -rf .git"))
    assert main(["audit", "--folder", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("KeSi audit log of project (") and out[0].endswith("newest last:")
    assert out[1].endswith("command `echo [redacted: GitHub token]`: run without asking (prints)")
    assert out[2].endswith("`rm -rf .git`: blocked by the red line (deletes the repository)")
    assert GITHUB not in "\n".join(out)
    assert main(["audit", "--folder", str(folder), "--locale", "zh-TW"]) == 0
    assert "被紅線擋下（deletes the repository）" in capsys.readouterr().out


def test_since_and_limit_narrow_and_json_gives_the_records(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(folder, old(72, "three days ago"), old(5, "five hours ago"), old(1, "an hour ago"))
    assert main(["audit", "--folder", str(folder), "--since", "2d"]) == 0
    shown = capsys.readouterr().out
    assert "five hours ago" in shown and "three days ago" not in shown
    assert main(["audit", "--folder", str(folder), "--since", "2h", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["command"] for r in records] == ["echo [redacted: GitHub token]", "an hour ago"]
    assert main(["audit", "--folder", str(folder), "--limit", "2", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["command"] for r in records] == ["five hours ago", "an hour ago"]
    assert main(["audit", "--folder", str(folder), "--limit", "0", "--json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4
    tomorrow = (datetime.date.today() + datetime.timedelta(days=1)).isoformat()
    assert main(["audit", "--folder", str(folder), "--since", tomorrow]) == 0
    assert capsys.readouterr().out == (
        f"KeSi audit log of project: nothing recorded since {tomorrow} 00:00:00.\n"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["--since", "yesterday"],
            "kesi-lsp audit: --since 'yesterday' is not a time; give an age (30m, 2h, 7d, 1w), "
            "a date (2026-12-01) or a date and time (2026-12-01T14:30).",
        ),
        (
            ["--limit", "-3"],
            "kesi-lsp audit: --limit '-3' is not a count; give a whole number, 0 for every record.",
        ),
        (["--folder", "no/such/place"], "kesi-lsp audit: no/such/place is not a folder."),
    ],
)
def test_bad_input_is_one_sentence_and_the_log_is_untouched(
    folder: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    log = write(folder)
    before = log.file_for(folder).read_bytes()
    full = ["audit", "--folder", str(folder), *args] if args[0] != "--folder" else ["audit", *args]
    assert main(full) == 2
    captured = capsys.readouterr()
    assert captured.err == said + "\n" and captured.out == ""
    assert log.file_for(folder).read_bytes() == before


def test_no_state_folder_says_why(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.delenv("HOME")
    assert main(["audit", "--folder", str(folder)]) == 1
    assert capsys.readouterr().err.startswith("KeSi keeps no audit log here: no state folder")


def test_nothing_recorded_yet_is_said_with_the_file(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", "--folder", str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("KeSi audit log of project: nothing recorded yet (")
    assert not any(folder.iterdir()), "reading made nothing in the folder"


def test_since_reads_ages_dates_and_times() -> None:
    now = datetime.datetime(2026, 12, 2, 12, 0, tzinfo=datetime.UTC)
    assert parse_since("90m", now) == now - datetime.timedelta(minutes=90)
    assert parse_since("1w", now) == now - datetime.timedelta(weeks=1)
    assert parse_since("2026-12-01T08:00+00:00", now) == now - datetime.timedelta(hours=28)
    assert parse_since("2026-12-01 08:00").tzinfo is not None  # local time
    for bad in ("", "soon", "3 fortnights", "-2h"):
        with pytest.raises(ValueError):
            parse_since(bad, now)


@pytest.mark.subprocess
def test_the_command_runs_as_a_program(folder: Path, state: Path) -> None:
    write(folder)
    done = subprocess.run(
        [sys.executable, "-m", "kesi_lsp", "audit", "--json"],
        cwd=folder,
        env={"XDG_STATE_HOME": str(state), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert record["command"] == "echo [redacted: GitHub token]"
