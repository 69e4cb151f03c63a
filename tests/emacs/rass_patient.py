"""A rass preset for the test behind rass: rass's own routing, with a longer wait for `initialize`.

rass merges the servers' `initialize` answers and gives up on a slow one after 3 s (its
`get_aggregation_timeout_ms`), then routes nothing to it: `workspace/executeCommand` answers
"no servers to handle" and the test fails for rass's patience, not for KeSi. On CI's loaded
2-core machine `kesi-lsp` answers `initialize` in 2.5-4.5 s (importing lsprotocol alone takes
seconds there; under 1 s when idle). rass loads this file by path (`rass PRESET -- ...`), the
way its users load their own presets.
"""

from __future__ import annotations

from rassumfrassum.frassum import LspLogic

INITIALIZE_MS = 60_000


class PatientLogic(LspLogic):
    def get_aggregation_timeout_ms(self, method: str | None) -> int:
        if method == "initialize":
            return INITIALIZE_MS
        return int(super().get_aggregation_timeout_ms(method))


def logic_class() -> type[LspLogic]:
    return PatientLogic
