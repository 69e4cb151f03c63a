"""`kesi-lsp mcp login` and `logout` against a loopback MCP server behind the SDK's OAuth
(`oauth_server.py`): login prints the address, the "browser" follows it, login says it signed
in; `kesi-lsp mcp list` then lists the tools; after logout the server needs sign-in again and
the line says how."""

from __future__ import annotations

import asyncio
import json
import stat
import sys
from pathlib import Path

import httpx2
import pytest

from kesi_lsp.core.mcp.account import sign_in_file
from tests.lsp.servers import server_env
from tests.mcp.oauth_server import oauth_loopback

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]


async def kesi_lsp(env: dict[str, str], cwd: Path, *args: str) -> tuple[int, list[str]]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "kesi_lsp", *args, cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await asyncio.wait_for(process.communicate(), 240)
    return process.returncode or 0, out.decode().splitlines()


async def test_login_then_list_then_logout(tmp_path: Path) -> None:
    env = server_env({"XDG_STATE_HOME": str(tmp_path / "state")})
    async with oauth_loopback(tmp_path) as url:
        login = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "kesi_lsp", "mcp", "login", "web", "--url", url),
            "--no-browser",
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
        )
        assert login.stdout is not None
        said = [(await asyncio.wait_for(login.stdout.readline(), 120)).decode().strip()]
        assert said == ["To sign in to the MCP server web, open this address in your browser:"]
        address = (await login.stdout.readline()).decode().strip()
        assert address.startswith(url.removesuffix("/mcp") + "/authorize?")
        async with httpx2.AsyncClient(follow_redirects=True, trust_env=False) as browser:
            assert (await browser.get(address)).status_code == 200
        rest, _ = await asyncio.wait_for(login.communicate(), 60)
        assert login.returncode == 0
        assert rest.decode().splitlines()[-1] == "Signed in to the MCP server web."
        token_file = sign_in_file(env, url)
        assert token_file is not None and stat.S_IMODE(token_file.stat().st_mode) == 0o600

        config = tmp_path / "servers.json"
        config.write_text(json.dumps({"mcpServers": {"web": {"type": "http", "url": url}}}))
        code, lines = await kesi_lsp(env, tmp_path, "mcp", "list", "--config", str(config))
        assert code == 0, lines
        assert lines[0].endswith(": ready") and lines[1] == "  tools: greet"

        code, lines = await kesi_lsp(env, tmp_path, "mcp", "logout", "web")
        assert (code, lines) == (0, ["Signed out of the MCP server web: its tokens are deleted."])
        assert not token_file.exists()
        code, lines = await kesi_lsp(env, tmp_path, "mcp", "list", "--config", str(config))
        assert code == 1
        assert "needs authorization" in lines[0] and "kesi-lsp mcp login web" in lines[0]
