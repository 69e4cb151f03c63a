"""Delivering a checked change through an editor (design §2.7): one pipeline, many transports.

`DeliveryPipeline` holds the rules (fresh before and after the review, review, apply, save only
over an unchanged disk, verify with the editor's reformatting allowed); a front end gives it an
`EditorPort`, its transport and nothing else. Plain disk, the LSP adapter and the ACP adapter
all deliver through it, and one conformance suite (`kesi_lsp.testing.conformance`) holds them
all to the same invariants.
"""

from kesi_lsp.core.delivery.landing import failed, finish
from kesi_lsp.core.delivery.pipeline import DeliveryPipeline, review_request, stale_words
from kesi_lsp.core.delivery.port import Drift, EditorPort, Landed, Route, Saved, Shown

__all__ = [
    "DeliveryPipeline",
    "Drift",
    "EditorPort",
    "Landed",
    "Route",
    "Saved",
    "Shown",
    "failed",
    "finish",
    "review_request",
    "stale_words",
]
