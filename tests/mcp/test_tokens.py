"""The sign-in store (`core.mcp.tokens`): what the SDK's provider writes comes back, only the
user can read it, and a damaged file means "not signed in", never a crash."""

from __future__ import annotations

import stat
from pathlib import Path

from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyUrl

from kesi_lsp.core.mcp.tokens import TokenFile, auth_directory, files_named

URL = "https://mcp.example.com/mcp"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_tokens_and_registration_come_back_in_files_only_the_user_can_read(
    tmp_path: Path,
) -> None:
    folder = auth_directory({"XDG_STATE_HOME": str(tmp_path / "state")})
    assert folder == tmp_path / "state" / "kesi" / "mcp-auth"
    store = TokenFile(folder, URL, "web")
    assert await store.get_tokens() is None and not store.signed_in()
    await store.set_tokens(OAuthToken(access_token="a1", refresh_token="r1", expires_in=60))
    info = OAuthClientInformationFull(
        client_id="c1", redirect_uris=[AnyUrl("http://127.0.0.1:5/callback")]
    )
    await store.set_client_info(info)
    again = TokenFile(folder, URL)
    tokens = await again.get_tokens()
    assert tokens is not None and tokens.access_token == "a1" and tokens.refresh_token == "r1"
    client = await again.get_client_info()
    assert client is not None and client.client_id == "c1"
    assert again.signed_in() and store.path is not None
    assert mode(store.path) == 0o600 and mode(store.path.parent) == 0o700
    assert [f.url for f in files_named(folder, "web")] == [URL]
    assert TokenFile(folder, "https://other.example.com/mcp").path != store.path
    assert again.forget() and not again.forget()
    assert await store.get_tokens() is None


async def test_a_damaged_file_is_not_signed_in(tmp_path: Path) -> None:
    store = TokenFile(tmp_path, URL, "web")
    assert store.path is not None
    for damage in ("{not json", "[1, 2]", '{"tokens": {"token_type": 3}}', '{"tokens": 7}'):
        store.path.write_text(damage, encoding="utf-8")
        assert await store.get_tokens() is None, damage
        assert await store.get_client_info() is None, damage
        assert not store.signed_in(), damage
    store.path.write_bytes(b"\xff\xfe\x00")
    assert await store.get_tokens() is None and not store.signed_in()
    await store.set_tokens(OAuthToken(access_token="fresh"))  # signing in again mends it
    assert store.signed_in() and mode(store.path) == 0o600


def test_without_a_home_nothing_is_kept() -> None:
    assert auth_directory({}) is None
    store = TokenFile(None, URL)
    assert store.path is None and not store.signed_in() and not store.forget()
