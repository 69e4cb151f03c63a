"""Start-up stays light: the language server answers `initialize` without loading the SDK.

Importing the `anthropic` SDK takes a second or more; it is loaded in a worker thread by the
first run (`kesi_lsp.core.runs.agent`). A module-level import anywhere on the server's start-up path
would put that second back into every editor start (benchmark 4 measures the effect).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
from kesi_lsp.lsp.app import create_server
create_server()
loaded = sorted(m for m in sys.modules if m == "anthropic" or m.startswith("anthropic."))
print(len(loaded), loaded[:5])
"""


@pytest.mark.subprocess
def test_building_the_server_does_not_import_the_sdk() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.startswith("0 "), done.stdout
