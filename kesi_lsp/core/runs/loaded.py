"""What `load_agent` loads: the loop's two entry points and the model client's builder.

Imported only by `kesi_lsp.core.runs.loading.load_agent`, in a worker thread, because it brings
the `anthropic` SDK with it (a second or more of imports). As a module it is the `LoadedAgent`
of that seam: the type checker holds it to the Protocol where `load_agent` returns it.
"""

from __future__ import annotations

from kesi_lsp.core.loop import compact_now, run_agent
from kesi_lsp.core.model.anthropic import build_model

__all__ = ["build_model", "compact_now", "run_agent"]
