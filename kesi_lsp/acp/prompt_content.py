"""A `session/prompt`'s content blocks as the task the agent gets.

KeSi announces text, embedded resources and resource links (`promptCapabilities`
`embeddedContext: true`, no images, no audio). Text blocks are the user's words, joined as they
came (clients split a message around its mentions). A resource is a file the user attached
with its text (Zed sends a selection as `file:///…/calc.py#L10:12` with those lines); a
resource link names a file the model can read itself when it is inside the folder. Both become
`Attachment`s of the core's task text (`attached_task`), so the wording is the core's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from acp.schema import (
    AudioContentBlock,
    BlobResourceContents,
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)

from kesi_lsp.acp.errors import bad_params
from kesi_lsp.acp.sessions import AcpSession
from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import Attachment, attached_task, is_ignored

Block = (
    TextContentBlock
    | ImageContentBlock
    | AudioContentBlock
    | ResourceContentBlock
    | EmbeddedResourceContentBlock
)

_LINES = re.compile(r"^L(\d+)(?:(?::|-L?)(\d+))?$")


def _file_path(uri: str) -> tuple[Path | None, int]:
    """The local path a `file:` URI names (None: another scheme) and the 0-based first line
    of its `#L10:12` fragment (0 without one)."""
    parts = urlsplit(uri)
    if parts.scheme not in ("file", ""):
        return None, 0
    path = Path(unquote(parts.path))
    if not path.is_absolute():
        return None, 0
    match = _LINES.match(parts.fragment)
    return path, (max(int(match.group(1)) - 1, 0) if match else 0)


def _where(session: AcpSession, uri: str, name: str | None) -> tuple[str, bool, int]:
    """How the task names an attached `uri`, whether the tools may open it, its first line."""
    path, first = _file_path(uri)
    if path is None:
        return name or uri, False, first
    resolved = path.resolve()
    root = session.root
    if resolved != root and resolved.is_relative_to(root):
        rel = resolved.relative_to(root).as_posix()
        return rel, not is_ignored(root, resolved), first
    return str(path), False, first


def _attachment(session: AcpSession, block: Block) -> Attachment:
    if isinstance(block, ResourceContentBlock):
        name, inside, _ = _where(session, block.uri, block.name)
        return Attachment(name, inside=inside)
    assert isinstance(block, EmbeddedResourceContentBlock)
    resource = block.resource
    name, inside, first = _where(session, resource.uri, None)
    if isinstance(resource, BlobResourceContents):
        return Attachment(name, inside=inside, binary=True)
    assert isinstance(resource, TextResourceContents)
    return Attachment(name, text=resource.text, first_line=first, inside=inside)


def prompt_task(session: AcpSession, blocks: Sequence[Block], locale: Locale) -> str:
    """The task text of a message; raises an invalid-params error for an empty message or
    content KeSi did not announce (an image, audio)."""
    words: list[str] = []
    attachments: list[Attachment] = []
    for block in blocks:
        if isinstance(block, TextContentBlock):
            words.append(block.text)
        elif isinstance(block, ImageContentBlock | AudioContentBlock):
            message = text("acp.error.unsupported_content", locale, kind=block.type)
            raise bad_params(message, "unsupportedContent", kind=block.type)
        else:
            attachments.append(_attachment(session, block))
    said = "".join(words)
    if not said.strip() and not attachments:
        raise bad_params(text("acp.error.empty_prompt", locale), "emptyPrompt")
    return attached_task(said, attachments, locale)
