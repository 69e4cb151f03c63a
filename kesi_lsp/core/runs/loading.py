"""Loading the agent (the loop, the `anthropic` SDK) without the editor noticing.

The SDK is large: about a second of imports on a quiet machine, several on a busy one. It loads
in a worker thread, but a thread still shares the interpreter with the event loop that answers
the editor, so the loading is made gentle (issue 14's target: the editor's requests answered in
<= 10 ms, p99, while it happens):

- no garbage collection during the imports: a full collection of the ~190,000 objects being
  created holds the interpreter for 100-300 ms (measured on this project's machine);
- a short GIL switch interval (0.5 ms instead of 5): a request waits for a slice, not a turn;
- and, when the loading is a preparation (nobody waits for it yet), it steps aside for the
  editor: before each module it imports, while `busy()` says the editor is in the middle of
  talking to the server, the worker sleeps (a few ms at a time, at most `MAX_PAUSE_SECONDS`
  per module, so it always gets done). A run that needs the agent now never waits for that.

Then the SDK's first-use work is done too (`kesi_lsp.core.model.warmup`; not when a run is
already waiting for the agent: its own first request does that work), and everything alive
is frozen out of the collector's sight (`gc.freeze`): with the SDK loaded, every full collection
would otherwise walk ~190,000 objects while holding the interpreter: 175-255 ms, measured during
a glob of 30,000 files (issue 9, benchmark 3). Frozen objects are still freed by reference
counting; import-time objects live as long as the server anyway.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.abc
import importlib.machinery
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    from kesi_lsp.core.events import RunFinished
    from kesi_lsp.core.model.anthropic import ModelClient
    from kesi_lsp.core.settings.agent import AgentSettings
    from kesi_lsp.core.tools.context import ToolContext

log = logging.getLogger(__name__)

Busy = Callable[[], bool]
"""Whether the editor is talking to the server right now (then a preparation steps aside)."""

GENTLE_SWITCH_SECONDS: Final = 0.0005
PAUSE_SECONDS: Final = 0.003
MAX_PAUSE_SECONDS: Final = 0.5


def never_busy() -> bool:
    return False


class LoadedAgent(Protocol):
    """The agent once loaded (`kesi_lsp.core.runs.loaded`): what a runner calls on it.

    The one lazy seam of the core: everything behind it (the loop, the tools, the SDK) loads on
    first use, and the type checker follows the main path through this Protocol.
    """

    def build_model(self, settings: AgentSettings, environ: Mapping[str, str]) -> ModelClient:
        """The model client for these settings (raises MissingApiKeyError without a key)."""
        ...

    async def run_agent(self, ctx: ToolContext, prompt: str, model: ModelClient) -> RunFinished:
        """Run one user message to its end."""
        ...

    async def compact_now(self, ctx: ToolContext, model: ModelClient) -> RunFinished:
        """Summarise the session's older turns now (`kesi.compact`)."""
        ...


class _StepAside(importlib.abc.MetaPathFinder):
    """Before each module the loading thread imports, wait while the editor is busy. It finds
    nothing itself: the import goes on as usual afterwards."""

    def __init__(self, thread: int, busy: Busy) -> None:
        self._thread = thread
        self._busy = busy

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if threading.get_ident() == self._thread:
            deadline = time.monotonic() + MAX_PAUSE_SECONDS
            while self._busy() and time.monotonic() < deadline:
                time.sleep(PAUSE_SECONDS)  # sleeping releases the interpreter
        return None


@contextlib.contextmanager
def _gently(busy: Busy) -> Iterator[None]:
    """Collection paused, a short switch interval, and stepping aside while `busy()`; all
    restored afterwards."""
    collecting, interval = gc.isenabled(), sys.getswitchinterval()
    finder = _StepAside(threading.get_ident(), busy)
    gc.disable()
    sys.setswitchinterval(GENTLE_SWITCH_SECONDS)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(finder)
        sys.setswitchinterval(interval)
        if collecting:
            gc.enable()


_lock = threading.Lock()
_loaded: LoadedAgent | None = None


def load_agent(busy: Busy = never_busy, waited: Busy = never_busy) -> LoadedAgent:
    """The agent, imported and warmed once per process (call it in a worker thread; callers at
    the same time wait for the first).

    `waited` says whether a run is waiting for the agent: the warm-up is then skipped, since a
    waiting run's own first request does the same first-use work, and the warm-up's request,
    its loopback server and its parse would only come in front of it (issue 33: nothing else
    on the path to the first model request)."""
    global _loaded
    with _lock:
        if _loaded is not None:
            return _loaded
        with _gently(busy):
            from kesi_lsp.core.runs import loaded  # the lazy seam: the SDK loads here

            if waited():
                log.debug("a run is waiting: the SDK warms up on its first request")
            else:
                _warm()
            gc.freeze()
        _loaded = loaded
        return _loaded


def _warm() -> None:
    """The SDK's first-use work now, so a later run's first request leaves at once."""
    try:
        from kesi_lsp.core.model.warmup import warm_sdk

        warm_sdk()
    except Exception as exc:  # only ever a loss of speed
        log.warning("warming the SDK up failed: %s", exc)
