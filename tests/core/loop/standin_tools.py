"""Stand-ins for the seven tools while `kesi_lsp.core.tools` is still a placeholder on main.

The loop only needs `tool_schemas(locale)` and `run_tool(name, input, ctx)`. These behave like
the seed's tools in the ways the loop tests rely on: `list_files` succeeds, `read_file` fails
for a missing file, `run_command` with `sleep N` takes N seconds, an unknown tool is an error.
The `registry` fixture uses them only when the real registry is not implemented yet.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from anthropic.types import ToolParam

from kesi_lsp.catalog import Locale
from kesi_lsp.core.tools import ToolResult
from kesi_lsp.core.tools.context import ToolContext


def _schema(name: str, **props: str) -> ToolParam:
    return {
        "name": name,
        "description": f"{name} (stand-in)",
        "strict": True,
        "input_schema": {
            "type": "object",
            "properties": {p: {"type": t} for p, t in props.items()},
            "required": [],
            "additionalProperties": False,
        },
    }


def tool_schemas(locale: Locale) -> list[ToolParam]:
    return [
        _schema("read_file", file_path="string"),
        _schema("list_files", path="string"),
        _schema("run_command", command="string"),
    ]


async def run_tool(name: str, tool_input: object, ctx: ToolContext) -> ToolResult:
    return (
        await asyncio.to_thread(_blocking, name, tool_input, ctx)
        if name != "run_command"
        else (await _command(tool_input))
    )


async def _command(tool_input: object) -> ToolResult:
    args = tool_input if isinstance(tool_input, dict) else {}
    command = str(args.get("command", ""))
    if command.startswith("sleep "):
        await asyncio.sleep(float(command.split()[1]))
        return ToolResult("（指令沒有輸出）（結束碼 0）")
    return ToolResult(f"（結束碼 0）{command}")


def _blocking(name: str, tool_input: object, ctx: ToolContext) -> ToolResult:
    args = tool_input if isinstance(tool_input, dict) else {}
    root: Path = ctx.session.root
    if name == "list_files":
        names = sorted(p.name for p in root.iterdir())
        return ToolResult("\n".join(names) or "（這個目錄沒有可列出的項目）")
    if name == "read_file":
        target = root / str(args.get("file_path", ""))
        if not target.is_file():
            return ToolResult(f"錯誤：找不到或不允許存取檔案 {args.get('file_path')}", True)
        return ToolResult(target.read_text(encoding="utf-8"))
    return ToolResult(f"錯誤：沒有 {name} 這個工具。", True)
