"""Messages of the `network` domain: key -> (English, Traditional Chinese).

The sandbox's network (`kesi_lsp.core.network`): its settings, the proxy's refusals (the HTTP
403 body a command sees, the lines its tool result ends with), the question to widen the
allow-list, what the model is told of the answer, and the listing of grants and rules.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "settings.expect.sandbox_network": (
        '"off" (no network), "ask" (an allow-list, asking for other hosts) or "allowList"',
        "「off」（完全不連網）、「ask」（白名單，其他主機先問你）或「allowList」",
    ),
    "settings.expect.hosts": ("a list of host patterns", "主機樣式的清單"),
    "settings.host_pattern_invalid": (
        "KeSi setting {key}: the host pattern {pattern} is ignored ({why}); the others stay in "
        "force.",
        "KeSi 設定 {key}：主機樣式 {pattern} 先不採用（{why}），其他的照常生效。",
    ),
    "settings.host_problem.empty": (
        "a pattern is a non-empty text",
        "樣式要是一段不是空白的文字",
    ),
    "settings.host_problem.host": (
        "expected a host such as pypi.org, *.pythonhosted.org, an IP address or *",
        "應該是像 pypi.org、*.pythonhosted.org 這樣的主機、IP 位址或 *",
    ),
    "settings.host_problem.list": (
        'expected a list such as ["pypi.org", "*.pythonhosted.org"]',
        '應該是像 ["pypi.org", "*.pythonhosted.org"] 這樣的清單',
    ),
}
