"""Where KeSi keeps what it got by signing in to a remote MCP server: the OAuth tokens and the
client registration, one file per server URL in `$XDG_STATE_HOME/kesi/mcp-auth/` (else
`~/.local/state/kesi/mcp-auth/`).

A token is a password: the folder is 0700 and each file 0600, written whole (a partial file,
then a rename) so that a crash never leaves half a token behind. The SDK's
`OAuthClientProvider` reads and writes them through the `TokenStorage` protocol (`TokenFile`),
refreshing the access token when it expires. A file that cannot be read or parsed is read as
"not signed in" (the user signs in again), never as an error that stops the server.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from kesi_lsp.core.persistence import state_directory

if TYPE_CHECKING:
    from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

log = logging.getLogger(__name__)

FOLDER: Final = "mcp-auth"


def auth_directory(environ: Mapping[str, str]) -> Path | None:
    """The folder of the sign-ins (None: no home, nothing is kept)."""
    state = state_directory(environ)
    return state.parent / FOLDER if state is not None else None


class TokenFile:
    """The sign-in of one server URL (the SDK's `TokenStorage`; see the module text)."""

    def __init__(self, directory: Path | None, url: str, name: str = "") -> None:
        self.url = url
        self.name = name
        digest = hashlib.sha256(url.encode("utf-8")).hexdigest()[:32]
        self.path = directory / f"{digest}.json" if directory is not None else None
        self._memory: dict[str, Any] = {}

    # --- the SDK's TokenStorage ---

    async def get_tokens(self) -> OAuthToken | None:
        from mcp.shared.auth import OAuthToken

        found = _model(OAuthToken, (await asyncio.to_thread(self.read)).get("tokens"))
        return found if isinstance(found, OAuthToken) else None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        await asyncio.to_thread(self._update, "tokens", tokens.model_dump(mode="json"))

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        from mcp.shared.auth import OAuthClientInformationFull

        found = (await asyncio.to_thread(self.read)).get("client_info")
        info = _model(OAuthClientInformationFull, found)
        return info if isinstance(info, OAuthClientInformationFull) else None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        value = client_info.model_dump(mode="json", exclude_none=True)
        await asyncio.to_thread(self._update, "client_info", value)

    # --- KeSi's own use ---

    def signed_in(self) -> bool:
        """Whether there is an access token to send (an expired one is refreshed by the SDK)."""
        tokens = self.read().get("tokens")
        return isinstance(tokens, dict) and isinstance(tokens.get("access_token"), str)

    def forget(self) -> bool:
        """Delete the sign-in (tokens and registration); whether there was one."""
        if self.path is None:
            had, self._memory = bool(self._memory), {}
            return had
        try:
            self.path.unlink()
        except FileNotFoundError:
            return False
        return True

    def forget_client(self) -> None:
        """Drop the registration only (its redirect address can no longer be served)."""
        self._update("client_info", None)

    def read(self) -> dict[str, Any]:
        """What the file holds, {} when it is missing or damaged (see the module text)."""
        if self.path is None:
            return dict(self._memory)
        try:
            value = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("MCP sign-in in %s cannot be read (%s): not signed in", self.path, exc)
            return {}
        return value if isinstance(value, dict) else {}

    def _update(self, key: str, value: object) -> None:
        held = self.read()
        if value is None:
            held.pop(key, None)
        else:
            held[key] = value
        held.update(url=self.url, name=self.name or held.get("name", ""))
        if self.path is None:
            self._memory = held
            return
        _write_private(self.path, json.dumps(held, indent=1))


def _model(cls: Any, value: object) -> Any:
    """`value` read as the SDK's `cls`, None when it is not one (a damaged file)."""
    if not isinstance(value, dict):
        return None
    try:
        return cls.model_validate(value)
    except ValueError as exc:
        log.warning("an MCP sign-in record is damaged (%s): not signed in", exc)
        return None


def _write_private(path: Path, content: str) -> None:
    """`content` as `path`, readable by the user only, in a folder only the user can open."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.parent.chmod(0o700)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # an older partial file may have been created wider
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(content)
    partial.replace(path)


def files_named(directory: Path | None, name: str) -> list[TokenFile]:
    """The sign-ins recorded for a server called `name` (logout without its URL)."""
    if directory is None or not directory.is_dir():
        return []
    found = []
    for path in sorted(directory.glob("*.json")):
        held = TokenFile(None, "")
        held.path = path
        value = held.read()
        if value.get("name") == name and isinstance(value.get("url"), str):
            found.append(TokenFile(directory, value["url"], name))
    return found
