"""How a server process imports itself: without the garbage collector looking on.

A server's start-up is thousands of modules and classes (pygls' and the ACP SDK's attrs and
pydantic models among them) that all live as long as the process. While they are imported the
collector runs full passes over a heap that only grows and frees nothing; afterwards it would
keep walking them in every full pass. Both cost the user's wait for `initialize`, so the imports
run with collection off, and what they made is then frozen out of the collector's sight.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def imports_without_collection() -> Iterator[None]:
    """Collection off while the block imports; its objects frozen, collection as it was."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
