"""The scripted model's side of the ACP fix-this scenario, shared by both ACP clients' tests
(the Python package's client and the TypeScript SDK's): one story, told to two clients."""

from __future__ import annotations

from kesi_lsp.scripted_api import reply, script, tool_use

PYTEST = "python3 -m pytest -q"
DONE = "Fixed: add now adds, and the test passes."

FIX_SCRIPT = script(
    reply(
        "Let me read calc.py.",
        tool_use("read_file", {"file_path": "calc.py"}),
        expect={"last_user_text_contains": "test_add fails"},
    ),
    reply(
        "It subtracts. ",
        tool_use(
            "edit_file",
            {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
        ),
        expect={"last_tool_result_contains": "return a - b"},
    ),
    reply(
        "Now the test.",
        tool_use("run_command", {"command": PYTEST}),
        expect={"last_tool_result_is_error": False},
    ),
    reply(DONE, expect={"last_tool_result_contains": "1 passed"}),
)
