"""How much the slower checks may cost: everything in `./dev test`, a taste in `./dev test --fast`.

`./dev test --fast` sets KESI_TEST_FAST=1. Property tests then try a handful of examples
instead of hundreds (the full run still tries them all, so nothing is checked less where it
counts); everything else runs exactly as in the full run.
"""

from __future__ import annotations

import os

FAST = os.environ.get("KESI_TEST_FAST") == "1"
FAST_EXAMPLES = 12


def examples(full: int) -> int:
    """The number of examples a property test tries: `full`, or a few in the fast loop."""
    return min(full, FAST_EXAMPLES) if FAST else full
