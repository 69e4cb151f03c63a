"""A small MCP server over stdio for faults, standard library only (it runs in the sandbox).

`fault_server.py MODE [LOG]`: MODE is how it misbehaves, LOG a file where it appends each
message it receives (so a test can see `notifications/cancelled`).

- `ok`: a well-behaved server whose tools are `echo` (text back), `huge` (a 3 MB result),
  `crash` (exits in the middle of the call), `slow` (never answers: cancel it), `picture` (an
  image), `fail` (an `isError` result), `bad_schema` (a schema the API refuses), `grow` (adds
  the tool `extra` and sends `notifications/tools/list_changed`), `read` (reads a file: the
  sandbox test), `fetch` (gets a URL with urllib, through the proxy its environment names:
  the network test), `dangerous` (takes a `command`);
- `exit`: exits at start, saying why on stderr;
- `garbage`: writes lines that are not JSON-RPC and never answers;
- `hang`: never answers `initialize`;
- `hang_list`: answers `initialize`, never `tools/list`;
- `flood`: floods stdout with garbage.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
LOG = Path(sys.argv[2]) if len(sys.argv) > 2 else None
OBJECT = {"type": "object", "properties": {"text": {"type": "string"}}}
TOOLS = [
    {"name": "echo", "description": "Say the text back.", "inputSchema": OBJECT},
    {"name": "huge", "description": "A very large result.", "inputSchema": {"type": "object"}},
    {"name": "crash", "description": "Crashes mid-call.", "inputSchema": {"type": "object"}},
    {"name": "slow", "description": "Never answers.", "inputSchema": {"type": "object"}},
    {"name": "picture", "description": "An image.", "inputSchema": {"type": "object"}},
    {"name": "fail", "description": "Fails.", "inputSchema": {"type": "object"}},
    {
        "name": "bad_schema",
        "description": "Its schema is not valid.",
        "inputSchema": {"type": "object", "properties": {"x": {"type": "nonsense"}}},
    },
    {"name": "grow", "description": "Adds a tool.", "inputSchema": {"type": "object"}},
    {
        "name": "read",
        "description": "Read a file.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
    },
    {
        "name": "fetch",
        "description": "Get a URL.",
        "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}},
    },
    {
        "name": "dangerous",
        "description": "Runs a command.",
        "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}},
    },
]


def send(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(request_id: object, result: dict[str, object]) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "result": result})


def text(value: str, error: bool = False) -> dict[str, object]:
    return {"content": [{"type": "text", "text": value}], "isError": error}


def call(request_id: object, name: str, arguments: dict[str, object]) -> None:
    if name == "echo":
        answer(request_id, text(f"echo: {arguments.get('text', '')}"))
    elif name == "huge":
        answer(request_id, text("x" * 3_000_000 + "THE END"))
    elif name == "crash":
        sys.stderr.write("fault: crashing in the middle of a call\n")
        sys.stderr.flush()
        sys.exit(9)
    elif name == "slow":
        return
    elif name == "picture":
        image = {"type": "image", "data": "aGVsbG8gd29ybGQh", "mimeType": "image/png"}
        answer(request_id, {"content": [image]})
    elif name == "fail":
        answer(request_id, text("the tool failed on purpose", error=True))
    elif name == "grow":
        TOOLS.append({"name": "extra", "description": "New.", "inputSchema": {"type": "object"}})
        answer(request_id, text("grown"))
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    elif name == "read":
        try:
            answer(request_id, text(Path(str(arguments.get("path"))).read_text()))
        except OSError as exc:
            answer(request_id, text(f"cannot read: {exc}", error=True))
    elif name == "fetch":
        answer(request_id, fetch(str(arguments.get("url"))))
    else:
        answer(request_id, text(f"ran {arguments}"))


def fetch(url: str) -> dict[str, object]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return text(response.read().decode())
    except urllib.error.HTTPError as exc:
        return text(f"HTTP {exc.code}: {exc.read().decode()}", error=True)
    except OSError as exc:
        return text(f"cannot fetch: {exc}", error=True)


def serve() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if LOG is not None:
            with LOG.open("a") as log:
                log.write(json.dumps(message) + "\n")
        method, request_id = message.get("method"), message.get("id")
        if method == "initialize":
            if MODE == "hang":
                continue
            version = message["params"]["protocolVersion"]
            info = {"name": "fault", "version": "1"}
            capabilities = {"tools": {"listChanged": True}}
            answer(
                request_id,
                {"protocolVersion": version, "capabilities": capabilities, "serverInfo": info},
            )
        elif method == "tools/list":
            if MODE != "hang_list":
                answer(request_id, {"tools": TOOLS})
        elif method == "tools/call":
            params = message["params"]
            call(request_id, params["name"], params.get("arguments") or {})
        elif request_id is not None and method is not None:
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "no"}})


def main() -> None:
    if MODE == "exit":
        sys.stderr.write("fault: refusing to start\n")
        sys.exit(3)
    if MODE == "garbage":
        for _ in range(3):
            print("this is not JSON-RPC", flush=True)
        time.sleep(3600)
    if MODE == "flood":
        while True:
            print("garbage " * 20, flush=False)
    serve()


if __name__ == "__main__":
    main()
