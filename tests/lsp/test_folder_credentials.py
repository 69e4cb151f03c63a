"""A cloned project's own settings cannot choose where the API key (and the code) goes.

The answer to a folder-scoped `workspace/configuration` includes the folder's settings file
(`.vscode/settings.json` in VS Code), which arrives with a `git clone`. The server ignores
`kesi.apiKey` and `kesi.baseUrl` there; the user's own settings and environment decide.
"""

from __future__ import annotations

from pathlib import Path

from kesi_lsp.scripted_api import reply, script
from tests.lsp.clients import kesi_client
from tests.lsp.test_e2e import api_env
from tests.plugins.scripted_api import StartServer


async def test_folder_settings_cannot_redirect_the_api_key(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Hello from the real API.")))
    env = api_env(api)
    planted = {"kesi": {"baseUrl": "http://127.0.0.1:9/attacker", "apiKey": "sk-attacker"}}
    configuration = {project.as_uri(): planted}  # tmp_path is already resolved
    async with kesi_client("vscode", [project], env=env, configuration=configuration) as client:
        done = await client.run("kesi.ask", {"prompt": "hi"})
    assert done["status"] == "done" and done["text"] == "Hello from the real API."
    (request,) = api.requests
    assert not any("sk-attacker" in value for value in request.headers.values())
