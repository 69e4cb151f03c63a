"""Start the language server exactly as `kesi-lsp` / `python -m kesi_lsp` does.

One bridge, while the LSP adapter is being finished on its branch: `kesi_lsp.lsp.agent` calls
`kesi_lsp.core.model.anthropic.build_model(settings, environ)`, which the core does not define
(it has the `ModelClient(settings, environ)` constructor). When that module is imported (lazily,
at the first run, as the adapter does it) and lacks the name, it gets exactly that constructor.
Once the adapter lands its own, this does nothing. It never imports the SDK early, so start-up
is measured as it really is.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType, SimpleNamespace

from kesi_lsp.cli import main
from kesi_lsp.lsp import agent


def _import_module(name: str) -> ModuleType:
    module = importlib.import_module(name)
    if name == "kesi_lsp.core.model.anthropic" and not hasattr(module, "build_model"):
        module.build_model = module.ModelClient  # type: ignore[attr-defined]
    return module


agent.importlib = SimpleNamespace(import_module=_import_module)  # type: ignore[attr-defined,assignment]

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
