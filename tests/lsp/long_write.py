"""A run that writes one long file (12 KB), for the tests of a tool input shown as it streams
(issue 31 item 6): the LSP's and ACP's."""

from __future__ import annotations

from kesi_lsp.scripted_api import Script, reply, script, tool_use

CONTENT = "".join(f"RATE_{n} = {n / 100:.2f}  # the rate of step {n}\n" for n in range(300))
WRITE = {"file_path": "shop/rates.py", "content": CONTENT}
CHUNK = 7  # characters per input_json_delta: the scripted API's default


def long_write() -> Script:
    """The model writes `WRITE` (its input streamed in `CHUNK`-character pieces), then ends."""
    return script(reply("Writing the rates.", tool_use("write_file", WRITE)), reply("Written."))
