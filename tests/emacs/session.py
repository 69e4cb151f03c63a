"""What the end-to-end tests share: a failing project, an Emacs running KeSi on it, waits."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.emacs.conftest import OpenEmacs
from tests.emacs.harness import EditorError, Emacs, elisp_string

CALC_BUGGY = 'def add(a, b):\n    """Return the sum of a and b."""\n    return a - b\n'
CALC_FIXED = 'def add(a, b):\n    """Return the sum of a and b."""\n    return a + b\n'
FAULTY_LINE = 3  # 1-based: "    return a - b"
TEST_CALC = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
FAKE_KEY = "sk-ant-test-emacs"


def failing_project(root: Path) -> Path:
    """A git project: `calc.py` (add() subtracts) and `test_calc.py`, which fails."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[project]\nname = "calc"\nversion = "0.1.0"\n')
    (root / "calc.py").write_text(CALC_BUGGY, encoding="utf-8")
    (root / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def disk(project: Path, rel: str) -> str:
    return (project / rel).read_text(encoding="utf-8")


class KesiEmacs:
    """An Emacs with KeSi started in its project, plus the waits the tests need."""

    def __init__(self, ed: Emacs) -> None:
        self.ed = ed

    def start(self, file: str = "calc.py") -> None:
        """`M-x kesi-start`, then wait until kesi-lsp manages `file`."""
        self.ed.command("kesi-start")
        self.ed.wait_until(
            lambda: self.ed.in_file(file, "(and (cl-typep (eglot-current-server) 'kesi-server) t)"),
            "kesi-lsp to start and manage the buffer",
        )

    def runs(self) -> list[dict[str, Any]]:
        return list(self.ed.eval("(kesi-test-runs)"))

    def wait_finished(self, count: int = 1, timeout: float = 60.0) -> dict[str, Any]:
        """Wait until `count` runs have ended; return the last one to end."""
        self.ed.wait_until(lambda: len(self.runs()) >= count, f"{count} run(s) to end", timeout)
        return self.runs()[-1]

    def _while_running(self, check: Any, what: str) -> Any:
        ended = len(self.runs())

        def poll() -> Any:
            value = check()
            if not value and len(self.runs()) > ended:
                raise EditorError(f"the run ended while waiting for {what}\n{self.ed.story()}")
            return value

        return self.ed.wait_until(poll, what)

    def wait_review(self) -> dict[str, Any]:
        """Wait for a review buffer; return {name, lines, selected, mode}."""
        return dict(self._while_running(lambda: self.ed.eval("(kesi-test-review)"), "a review"))

    def wait_prompt(self, text: str) -> str:
        """Wait until a KeSi prompt showing `text` is in the minibuffer; return the screen."""
        return str(
            self._while_running(
                lambda: text in (s := self.ed.screen()) and "[KeSi]" in s and s,
                f"the prompt {text!r}",
            )
        )

    def output(self) -> list[str]:
        return [line for line in self.ed.lines("*kesi*") if line]

    def wait_output(self, text: str, timeout: float = 30.0) -> list[str]:
        def found() -> list[str] | None:
            out = self.output()
            return out if any(text in line for line in out) else None

        return list(self.ed.wait_until(found, f"{text!r} in *kesi*", timeout))

    def faces(self) -> dict[str, str]:
        return dict(self.ed.eval('(kesi-test-faces "*kesi*")'))

    def add_diagnostic(self, rel: str, line: int, message: str) -> None:
        path = elisp_string(str((self.ed.project / rel).resolve()))
        self.ed.eval(f"(progn (kesi-test-add-diagnostic {path} {line} {elisp_string(message)}) t)")

    def goto_line(self, line: int) -> None:
        """`M-g g LINE RET`, typed."""
        self.ed.keys("M-g", "g")
        self.ed.wait_until(lambda: "Goto line" in self.ed.screen_lines()[-1], "the goto prompt")
        self.ed.type(str(line))
        self.ed.keys("Enter")
        where = "(with-current-buffer (window-buffer) (line-number-at-pos (window-point)))"
        self.ed.wait_until(lambda: self.ed.eval(where) == line, f"point on line {line}")


def start_kesi(
    open_emacs: OpenEmacs,
    project: Path,
    base_url: str,
    file: str = "calc.py",
    settings: dict[str, Any] | None = None,
) -> KesiEmacs:
    """An Emacs visiting `file` of `project` with KeSi started, pointed at the scripted API;
    `settings` become `kesi-settings`."""
    env = {"ANTHROPIC_BASE_URL": base_url, "ANTHROPIC_API_KEY": FAKE_KEY}
    if settings:
        env["KESI_EMACS_SETTINGS"] = json.dumps(settings)
    ed = open_emacs(project, file, env=env)
    kesi = KesiEmacs(ed)
    kesi.start(file)
    return kesi


def tool_result_text(request_body: dict[str, Any]) -> str:
    """The text of the tool_result blocks of a request's last (user) message."""
    last = request_body["messages"][-1]
    parts: list[str] = []
    for block in last["content"] if isinstance(last["content"], list) else []:
        if block.get("type") == "tool_result":
            content = block.get("content")
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts.extend(c.get("text", "") for c in content if isinstance(c, dict))
    return "\n".join(parts)
