"""Which model the demo's KeSi talks to: the real API with a key, else the recorded run.

The recorded run is served by the scripted Messages API on 127.0.0.1 (`recording.py`); the
server's environment then points the SDK there with a key that is obviously not real.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from kesi_lsp.catalog import Locale
from kesi_lsp.core import DEFAULT_MODEL
from kesi_lsp.demo.checks import SAMPLE_ENV
from kesi_lsp.demo.recording import recorded_model
from kesi_lsp.scripted_api import ScriptedServer

RECORDED_KEY = "sk-ant-demo-recorded-run-not-a-real-key"


@dataclass(frozen=True)
class Model:
    """Where the server's model requests go, and how to describe that on screen."""

    recorded: ScriptedServer | None
    name: str

    def environment(self, base: Mapping[str, str], bin_dir: Path) -> dict[str, str]:
        """The server's environment: the sample's venv first on PATH, the model's address
        and key."""
        env = dict(base)
        env["PATH"] = os.pathsep.join(filter(None, [str(bin_dir), env.get("PATH")]))
        env.update(SAMPLE_ENV)
        if self.recorded is not None:
            env = {k: v for k, v in env.items() if not k.startswith("ANTHROPIC_")}
            env["ANTHROPIC_API_KEY"] = RECORDED_KEY
            env["ANTHROPIC_BASE_URL"] = self.recorded.base_url
            env["NO_PROXY"] = ",".join(filter(None, [env.get("NO_PROXY"), "127.0.0.1"]))
        return env


@contextlib.contextmanager
def open_model(
    model: str | None, recorded: bool, pace: float | None, locale: Locale
) -> Iterator[Model]:
    """The real API when there is a key (and no --recorded), else the recorded run, served
    for as long as the context lasts. `pace` None: as measured on a terminal, else no waiting."""
    name = model or DEFAULT_MODEL
    has_key = bool(os.environ.get("ANTHROPIC_API_KEY", "").strip())
    if has_key and not recorded:
        yield Model(None, name)
        return
    if pace is None:
        pace = 1.0 if sys.stdout.isatty() else 0.0
    server = recorded_model(locale, max(pace, 0.0))
    server.start()
    try:
        yield Model(server, name)
    finally:
        server.stop()
