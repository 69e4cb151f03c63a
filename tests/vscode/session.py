"""One open workbench and the code-server behind it, as the tests hold them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.vscode.code_server import CodeServer
from tests.vscode.workbench import Workbench


@dataclass
class VSCode:
    workbench: Workbench
    server: CodeServer
    project: Path

    def output_channel(self, name: str = "KeSi") -> str:
        """The channel's whole text, from the file VS Code keeps it in."""
        return self.server.output_channel(name)

    def server_log(self) -> str:
        """The **KeSi Server** channel: the client's log and the server's stderr."""
        return self.output_channel("KeSi Server")

    def server_failure(self) -> str | None:
        """The end of the server log once the extension has said the server is not running."""
        log = self.server_log()
        if "KeSi's server is not running" not in log:
            return None
        lines = [line for line in log.splitlines() if line.strip()]
        return "\n".join(lines[-40:])


OpenVSCode = Callable[..., VSCode]
