"""A private code-server for one test: its own user data, settings, logs and port on 127.0.0.1.

The extension is installed once per session with `--install-extension` into an extensions
directory the tests share; everything else (user data, settings, logs, the workspace) is fresh
per test, so one test's state never leaks into the next.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.vscode.rig import Rig

# Settings that keep the workbench quiet and deterministic; the test adds KeSi's own.
QUIET_SETTINGS: dict[str, Any] = {
    "security.workspace.trust.enabled": False,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "extensions.ignoreRecommendations": True,
    "update.mode": "none",
    "files.autoSave": "off",
    "git.enabled": False,
    "chat.commandCenter.enabled": False,
    "editor.minimap.enabled": False,
    "window.commandCenter": False,
}

LISTENING = re.compile(r"HTTP server listening on (http://127\.0\.0\.1:\d+)/")


def install_extension(rig: Rig, extensions_dir: Path, scratch: Path) -> None:
    """Install the packaged .vsix the way a user would (`--install-extension`)."""
    result = subprocess.run(
        [
            rig.node,
            str(rig.entry),
            "--user-data-dir",
            str(scratch / "install-user-data"),
            "--extensions-dir",
            str(extensions_dir),
            "--install-extension",
            str(rig.vsix),
        ],
        capture_output=True,
        text=True,
        env=_env(scratch, {}),
        timeout=120,
        check=False,
    )
    if result.returncode != 0 or "successfully installed" not in result.stdout:
        raise RuntimeError(f"installing {rig.vsix} failed:\n{result.stdout}\n{result.stderr}")


def _env(scratch: Path, extra: Mapping[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    # code-server writes its config and state under XDG dirs; keep them inside the test.
    env["XDG_CONFIG_HOME"] = str(scratch / "xdg-config")
    env["XDG_DATA_HOME"] = str(scratch / "xdg-data")
    env.update(extra)
    return env


class CodeServer:
    """`code-server --auth none` on 127.0.0.1, on a free port, with its own user data."""

    def __init__(
        self,
        rig: Rig,
        extensions_dir: Path,
        scratch: Path,
        settings: Mapping[str, Any],
        env: Mapping[str, str],
    ) -> None:
        self.rig = rig
        self.extensions_dir = extensions_dir
        self.scratch = scratch
        self.user_data = scratch / "user-data"
        self.log_path = scratch / "code-server.log"
        self.settings = {**QUIET_SETTINGS, **settings}
        self.env = env
        self.url = ""
        self._process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60) -> CodeServer:
        user = self.user_data / "User"
        user.mkdir(parents=True, exist_ok=True)
        (user / "settings.json").write_text(json.dumps(self.settings, indent=2))
        config = self.scratch / "code-server.yaml"
        config.write_text("auth: none\ncert: false\n")
        with self.log_path.open("wb") as log:
            self._process = subprocess.Popen(
                [
                    self.rig.node,
                    str(self.rig.entry),
                    "--config",
                    str(config),
                    "--bind-addr",
                    "127.0.0.1:0",
                    "--auth",
                    "none",
                    "--user-data-dir",
                    str(self.user_data),
                    "--extensions-dir",
                    str(self.extensions_dir),
                    "--disable-telemetry",
                    "--disable-update-check",
                    "--disable-workspace-trust",
                    "--disable-getting-started-override",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=_env(self.scratch, self.env),
                start_new_session=True,  # its own process group: stop() ends the server too
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = LISTENING.search(self.log_path.read_text(errors="replace"))
            if found:
                self.url = found.group(1)
                break
            if self._process.poll() is not None:
                raise RuntimeError(f"code-server exited:\n{self.log()}")
            time.sleep(0.1)
        else:
            raise RuntimeError(f"code-server did not listen within {timeout} s:\n{self.log()}")
        with urllib.request.urlopen(f"{self.url}/healthz", timeout=10) as answer:
            if answer.status != 200:
                raise RuntimeError(f"code-server is not healthy: {answer.status}")
        return self

    def folder_url(self, folder: Path) -> str:
        return f"{self.url}/?folder={folder}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def extension_logs(self) -> dict[str, str]:
        """Every log the extension host wrote, by file name (output channels included)."""
        logs: dict[str, str] = {}
        for path in sorted((self.user_data / "logs").glob("*/exthost*/**/*.log")):
            logs[path.name] = path.read_text(errors="replace")
        return logs

    def output_channel(self, name: str) -> str:
        """The text of an output channel, as VS Code stored it (`N-<name>.log`)."""
        pattern = f"*/exthost*/output_logging_*/*-{name}.log"
        for path in sorted((self.user_data / "logs").glob(pattern)):
            return path.read_text(errors="replace")
        return ""

    def stop(self) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
