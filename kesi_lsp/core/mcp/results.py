"""A tool call's result as data for the model (seed Day 16: tool output is data, not
instructions).

Text is clipped exactly like a command's output (`shell.clip_output`: the
first and last 4000 bytes, with how much was left out); an image, audio or a resource is one
line saying what it is (the model cannot use the bytes, and they would fill the context);
structured content without text is shown as JSON. The whole result opens with a line saying
which server and tool it came from and that it is untrusted data; `isError` makes it a tool
error. The caller passes it through the redactor like every tool's result.
"""

from __future__ import annotations

import json
from typing import Any

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.mcp.reasons import Failure, describe
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.tools.shell import clip_output


def result_text(result: Any, server: str, tool: str, locale: Locale) -> ToolResult:
    """The SDK's `CallToolResult` as the model's tool result."""
    parts = [_part(block, locale) for block in result.content or []]
    body = "\n".join(p for p in parts if p)
    if not body and result.structured_content is not None:
        body = json.dumps(result.structured_content, ensure_ascii=False, default=str)
    if not body:
        body = text("mcp.result.empty", locale)
    data = body.encode("utf-8", "replace")
    head = text("mcp.result.untrusted", locale, server=server, tool=tool)
    summary = text("mcp.result.summary", locale, server=server, tool=tool, size=len(body))
    return ToolResult(f"{head}\n{clip_output(data, locale)}", bool(result.is_error), summary)


def _part(block: Any, locale: Locale) -> str:
    kind = getattr(block, "type", "")
    if kind == "text":
        return str(block.text)
    if kind in ("image", "audio"):
        size = len(getattr(block, "data", "") or "") * 3 // 4
        mime = getattr(block, "mime_type", "") or "?"
        return text(f"mcp.result.{kind}", locale, mime=mime, size=size)
    if kind == "resource":
        inner = block.resource
        size = len(getattr(inner, "text", None) or getattr(inner, "blob", "") or "")
        mime = getattr(inner, "mime_type", None) or "?"
        return text("mcp.result.resource", locale, uri=inner.uri, mime=mime, size=size)
    if kind == "resource_link":
        return text("mcp.result.link", locale, uri=block.uri, name=getattr(block, "name", ""))
    return text("mcp.result.other", locale, kind=kind or "?")


def failure_result(failure: Failure, server: str, tool: str, locale: Locale) -> ToolResult:
    """A call that got no result: the error the model reads, naming the server and why."""
    reason = describe(failure, locale, server)
    return ToolResult(
        text("mcp.call.failed", locale, server=server, tool=tool, reason=reason), True
    )
