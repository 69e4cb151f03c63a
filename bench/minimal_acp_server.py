"""The ACP start-up baseline: an agent on the `agent-client-protocol` package that only
answers `initialize` (started as `kesi-lsp acp` is, through this Python)."""

from __future__ import annotations

import asyncio
from typing import Any

from acp import PROTOCOL_VERSION, InitializeResponse, run_agent


class Minimal:
    async def initialize(self, protocol_version: int, **_: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=PROTOCOL_VERSION)

    def on_connect(self, conn: Any) -> None:
        return None


if __name__ == "__main__":
    asyncio.run(run_agent(Minimal()))  # type: ignore[arg-type]
