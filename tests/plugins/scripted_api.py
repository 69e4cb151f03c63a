"""pytest plugin: the `scripted_api` fixture starts scripted Messages API servers for a test.

Usage::

    from kesi_lsp.scripted_api import script, reply, tool_use

    def test_something(scripted_api):
        server = scripted_api(script(reply("Hello")))   # Script, list of Steps, or JSON dict
        client = anthropic.AsyncAnthropic(api_key="sk-ant-test", base_url=server.base_url)
        ...
        assert server.requests[0].body["messages"][-1]["content"] == "hi"
        assert server.accounting[0].usage.input_tokens > 0

Every server the fixture started is stopped at teardown, and **the test fails if any of them
saw a problem**: an invalid request, a failed `expect`, or a request after the script ran out.
A test that sends invalid requests on purpose calls `server.allow_problems()` (then asserts on
`server.problems` itself).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest

from kesi_lsp.scripted_api import Script, ScriptedServer, Step, as_script


class FixtureServer(ScriptedServer):
    """A ScriptedServer whose problems fail the test unless `allow_problems()` was called."""

    problems_allowed = False

    def allow_problems(self) -> None:
        self.problems_allowed = True


StartServer = Callable[..., FixtureServer]


@pytest.fixture
def scripted_api() -> Iterator[StartServer]:
    """Return `start(script)`: start a scripted server for this test; stopped at teardown."""
    servers: list[FixtureServer] = []

    def start(value: Script | Sequence[Step] | Mapping[str, Any], **hooks: Any) -> FixtureServer:
        """`hooks`: ScriptedServer's keyword arguments (`choose_step`, `on_event_sent`)."""
        server = FixtureServer(as_script(value), **hooks)
        server.start()
        servers.append(server)
        return server

    yield start
    failures: list[str] = []
    for server in servers:
        server.stop()
        if not server.problems_allowed:
            failures.extend(server.problems)
    if failures:
        pytest.fail("the scripted Messages API saw problems:\n" + "\n".join(failures))
