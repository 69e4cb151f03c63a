"""MCP: the tools users connect, inside KeSi's fence, gate and sandbox (design §2.13).

Servers come from the `mcpServers` setting (`core.settings.mcp_servers`), an ACP client's
`session/new` and an approved workspace `.mcp.json`; `hub.McpHub` keeps one `group.McpGroup`
per folder or ACP session; each `server.McpServer` lives in its own task (the official MCP SDK's
`ClientSession` over `stdio.py`'s sandboxed program or the SDK's HTTP transports). The model
sees their tools as `mcp__<server>__<tool>` (`offered.py`), every call goes through the
permission gate (`PermissionGate.authorize_tool`), and results come back as untrusted data
(`results.py`). Nothing here imports the SDK at module level but `stdio.py` and what imports it
(`server.py`, `group.py`): the hub, the only part the front ends hold at start, stays free.
"""
