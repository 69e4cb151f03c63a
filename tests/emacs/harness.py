"""Drive a real `emacs -nw` in a terminal (tmux), running the package in `editors/emacs`.

Batch Emacs cannot drive eglot: eglot sends `didChange` from an idle timer, and
`emacs --batch` is never idle. So the tests start `emacs -nw -q -l tests/emacs/init.el FILE`
inside a detached tmux session of its own (a private tmux server socket), type into it with
`tmux send-keys` exactly as a user types, and read what a user would see: the terminal's
screen (`tmux capture-pane`) and, through the Emacs server socket that init.el opens, the
buffers, the echo-area log and the mode line.

Emacs, the `kesi-lsp` it starts and anything else of the session carry a marker variable in
their environment; `close()` ends every process that has it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "editors" / "emacs"
INIT = Path(__file__).resolve().parent / "init.el"
VENV_BIN = Path(sys.executable).parent
WIDTH, HEIGHT = 160, 50
MARKER = "KESI_EMACS_TEST"


def find_emacs() -> str | None:
    return shutil.which("emacs")


def find_tmux() -> str | None:
    return shutil.which("tmux")


class EditorError(AssertionError):
    """A wait timed out or Emacs misbehaved; the message carries what Emacs showed."""


def elisp_string(value: str) -> str:
    """`value` as an Emacs Lisp string literal."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Emacs:
    """One `emacs -nw` with KeSi, working in `project`, in a tmux session of its own."""

    def __init__(
        self,
        emacs: str,
        tmux: str,
        project: Path,
        home: Path,
        file: str,
        env: Mapping[str, str] | None = None,
        setup: str = "package",
    ) -> None:
        self.project = project
        self.home = home
        self.tmux = tmux
        self.marker = uuid.uuid4().hex
        # Short paths: Unix socket names are limited to about 100 bytes.
        self.sockets = Path(tempfile.mkdtemp(prefix="kesi-emacs-"))
        self.tmux_socket = self.sockets / "tmux"
        self.server_socket = self.sockets / "kesi"
        self.dump = self.sockets / "dump.json"
        full_env = {k: v for k, v in os.environ.items() if not k.startswith(("TMUX", "EMACS"))}
        full_env.update(
            {
                # HOME stays: the sandbox keeps the real home's toolchains (~/.pyenv) visible.
                "KESI_EMACS_HOME": str(home),
                "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
                "LANG": "C.UTF-8",
                "LC_ALL": "C.UTF-8",
                "KESI_EMACS_SOCKET_DIR": str(self.sockets),
                "KESI_EMACS_PACKAGE": str(PACKAGE),
                "KESI_EMACS_SETUP": setup,
                MARKER: self.marker,
            }
        )
        full_env.update(env or {})
        command = [emacs, "-nw", "-q", "--no-splash", "-l", str(INIT), file]
        subprocess.run(
            [
                tmux,
                "-S",
                str(self.tmux_socket),
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "kesi",
                "-x",
                str(WIDTH),
                "-y",
                str(HEIGHT),
                "-c",
                str(project),
                " ".join(_quote(part) for part in command),
            ],
            check=True,
            env=full_env,
            cwd=project,
        )
        self.wait_until(self.server_socket.exists, "Emacs to open its server socket", 30)
        self.wait_until(lambda: self.eval("t") is True, "Emacs to answer", 30)
        visited = elisp_string(str((project / file).resolve()))
        self.wait_until(
            lambda: self.eval(f"(and (get-file-buffer {visited}) (not (input-pending-p)) t)"),
            f"Emacs to visit {file}",
        )

    # ---- talking to Emacs -----------------------------------------------------------------
    def eval(self, expr: str, timeout: float = 15) -> Any:
        """Evaluate `expr` in Emacs and return its value, through JSON."""
        with contextlib.suppress(FileNotFoundError):
            self.dump.unlink()
        code = f"(kesi-test-dump {elisp_string(str(self.dump))} {expr})"
        try:
            done = subprocess.run(
                ["emacsclient", "-s", str(self.server_socket), "--eval", code],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as exc:
            raise EditorError(f"Emacs did not answer {expr} within {timeout} s") from exc
        if done.returncode != 0:
            raise EditorError(f"emacsclient failed for {expr}: {done.stderr.strip()}")
        return json.loads(self.dump.read_text(encoding="utf-8"))

    def keys(self, *keys: str) -> None:
        """Press keys as tmux names them: "C-x", "M-x", "Enter", "Escape", "C-_"."""
        self._tmux("send-keys", "-t", "kesi", *keys)

    def type(self, text: str) -> None:
        """Type `text` literally."""
        self._tmux("send-keys", "-t", "kesi", "-l", text)

    def command(self, name: str) -> None:
        """`M-x name RET`, typed."""
        self.keys("M-x")
        self.wait_until(lambda: "M-x" in self.screen_lines()[-1], "the M-x prompt")
        self.type(name)
        self.keys("Enter")

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(
            [self.tmux, "-S", str(self.tmux_socket), *args], capture_output=True, text=True
        )
        if done.returncode != 0:
            raise EditorError(f"tmux {args[0]} failed: {done.stderr.strip()}")
        return done.stdout

    # ---- waiting ---------------------------------------------------------------------------
    def wait_until(self, check: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = check()
            except EditorError:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise EditorError(f"timed out after {timeout} s waiting for {what}\n{self.story()}")
            time.sleep(0.1)

    def wait_screen(self, text: str, timeout: float = 30.0) -> str:
        """Wait until `text` is on the terminal's screen; return the screen."""
        return str(
            self.wait_until(
                lambda: text in (screen := self.screen()) and screen, f"{text!r} on screen", timeout
            )
        )

    # ---- reading what the user sees -------------------------------------------------------
    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "kesi")

    def screen_lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen().rstrip("\n").split("\n")]

    def lines(self, buffer: str) -> list[str]:
        """The lines of a buffer by name ([] when it does not exist)."""
        return list(self.eval(f"(kesi-test-lines {elisp_string(buffer)})") or [])

    def file_lines(self, rel: str) -> list[str]:
        """The lines of the buffer visiting a project file."""
        path = elisp_string(str((self.project / rel).resolve()))
        value = self.eval(f"(kesi-test-lines (kesi-test-file-buffer {path}))")
        if value is None:
            raise EditorError(f"no buffer visits {rel}\n{self.story()}")
        return list(value)

    def in_file(self, rel: str, expr: str) -> Any:
        """Evaluate `expr` in the buffer visiting a project file."""
        path = elisp_string(str((self.project / rel).resolve()))
        return self.eval(f"(with-current-buffer (kesi-test-file-buffer {path}) {expr})")

    def messages(self) -> str:
        return "\n".join(self.lines("*Messages*"))

    def story(self) -> str:
        """What a human would want to see when a wait fails."""
        parts = ["screen:\n" + str(self._safe(self.screen))]
        parts.append("*Messages* (tail):\n" + str(self._safe(self.messages))[-3000:])
        parts.append("*kesi*:\n" + "\n".join(self._safe(lambda: self.lines("*kesi*")) or []))
        events = self._safe(
            lambda: self.eval(
                '(let ((b (cl-find-if (lambda (b) (string-match-p "EGLOT.*events" '
                "(buffer-name b))) (buffer-list)))) (and b (with-current-buffer b "
                "(buffer-substring-no-properties (max (point-min) (- (point-max) 6000)) "
                "(point-max)))))"
            )
        )
        parts.append(f"eglot events (tail):\n{events}")
        stderr = self._safe(
            lambda: self.eval(
                '(let ((b (cl-find-if (lambda (b) (string-match-p "EGLOT.*stderr" '
                "(buffer-name b))) (buffer-list)))) (and b (with-current-buffer b "
                "(buffer-substring-no-properties (max (point-min) (- (point-max) 4000)) "
                "(point-max)))))"
            )
        )
        parts.append(f"kesi-lsp stderr (tail):\n{stderr}")
        return "\n".join(parts)

    @staticmethod
    def _safe(fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except Exception as exc:  # a dead or blocked editor must not hide the first failure
            return f"<{exc}>"

    # ---- the end ---------------------------------------------------------------------------
    def close(self) -> None:
        """Quit Emacs (it stops kesi-lsp), then end whatever of the session survived."""
        with contextlib.suppress(Exception):
            subprocess.run(
                ["emacsclient", "-s", str(self.server_socket), "--eval", "(kill-emacs 0)"],
                capture_output=True,
                timeout=10,
            )
        deadline = time.monotonic() + 10
        while _marked(self.marker) and time.monotonic() < deadline:
            time.sleep(0.1)
        for pid in _marked(self.marker):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self._tmux("kill-server")
        shutil.rmtree(self.sockets, ignore_errors=True)


def _quote(part: str) -> str:
    return "'" + part.replace("'", "'\\''") + "'"


def _marked(marker: str) -> list[int]:
    """Processes whose environment carries this session's marker."""
    needle = f"{MARKER}={marker}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
    return found


@contextlib.contextmanager
def emacs_session(
    emacs: str,
    tmux: str,
    project: Path,
    home: Path,
    file: str,
    env: Mapping[str, str] | None = None,
    setup: str = "package",
) -> Iterator[Emacs]:
    ed = Emacs(emacs, tmux, project, home, file, env, setup)
    try:
        yield ed
    finally:
        ed.close()
