"""What the adapter holds of one client: the wire to it, its documents, what it can do.

Built once per server by the composition root (`app.py`) and shared by every run: the wire
and the documents live as long as the connection; `features` is learnt from `initialize`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pygls.workspace import PositionCodec

from kesi_lsp.lsp.capabilities import ClientFeatures
from kesi_lsp.lsp.documents import Documents
from kesi_lsp.lsp.wire import Wire


@dataclass
class EditorLink:
    """Everything a run needs from the server to reach the editor."""

    wire: Wire
    documents: Documents
    features: ClientFeatures = field(default_factory=ClientFeatures)

    @property
    def codec(self) -> PositionCodec:
        return self.documents.codec
