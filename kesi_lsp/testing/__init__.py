"""A scripted editor for KeSi: one imitation of an editor for the demo, the tests and benchmarks.

`kesi-lsp demo` plays the editor with it, the end-to-end tests imitate VS Code, Neovim, Emacs
and Helix with it, and the benchmarks drive the server with it. It needs pygls and lsprotocol
only, so it works from a plain install; the test suite layers pytest-lsp's checks on top.

- `Editor` (editor.py): the behaviour: buffers, `workspace/applyEdit` with each editor's
  quirks, scripted answers to prompts, reviews and previews, saves, the timeline of what the
  server sent (`kesi/plan` included), and the capability violations it noticed; what its other
  language servers report (`reported`, problems.py) answers `kesi/diagnostics`.
- `Preset` (presets.py): which editor to imitate. `KESI_EDITOR` (KeSi's extensions but
  `diagnostics`: it runs no other language server),
  `HELIX` (no prompts), `BENCH` (lean and trusting).
- `EditorClient` (client.py): the editor on pygls' `LanguageClient`.
- `connected` with `Program` or `InProcess` (launch.py): the server as a child process over
  stdio, or in a thread of this process over OS pipes.
- `conformance` (conformance.py): the delivery suite every workspace view must pass, whatever
  its wire (design §2.7's I1-I4 and the bad cases of a review).

It uses nothing of KeSi's server or core: it meets the server only on the wire.
"""

from kesi_lsp.testing.buffers import Buffer
from kesi_lsp.testing.client import EditorClient, client_converter
from kesi_lsp.testing.editor import (
    ALLOW_ONCE,
    ALLOW_SESSION,
    BUTTONS,
    DENY,
    Editor,
    EditorRefusalError,
    Feature,
)
from kesi_lsp.testing.handlers import plain_handler
from kesi_lsp.testing.launch import Connection, InProcess, Program, connected
from kesi_lsp.testing.presets import (
    BENCH,
    HELIX,
    KESI_EDITOR,
    KESI_FULL,
    Preset,
    with_kesi,
)

__all__ = [
    "ALLOW_ONCE",
    "ALLOW_SESSION",
    "BENCH",
    "BUTTONS",
    "DENY",
    "HELIX",
    "KESI_EDITOR",
    "KESI_FULL",
    "Buffer",
    "Connection",
    "Editor",
    "EditorClient",
    "EditorRefusalError",
    "Feature",
    "InProcess",
    "Preset",
    "Program",
    "client_converter",
    "connected",
    "plain_handler",
    "with_kesi",
]
