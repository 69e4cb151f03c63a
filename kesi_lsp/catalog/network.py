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
MESSAGES.update(
    {
        "network.why.unlisted": (
            "not in kesi.sandboxNetworkAllow",
            "不在 kesi.sandboxNetworkAllow 裡",
        ),
        "network.why.denied": (
            "kesi.sandboxNetworkDeny has {pattern}",
            "kesi.sandboxNetworkDeny 裡有 {pattern}",
        ),
        "network.why.address": (
            "it resolves to {detail}, an address of this machine, its private network or a "
            "metadata service, which the sandbox never reaches",
            "它解析到 {detail}，是這台機器、內部網路或中繼資料服務的位址，沙箱一律不連",
        ),
        "network.why.sni": (
            "its TLS connection asked for another name, {detail}",
            "它的 TLS 連線要的是另一個名稱 {detail}",
        ),
        "network.why.limit": (
            "the command reached the proxy's limit of {detail}",
            "這個指令用到了代理的上限（{detail}）",
        ),
        "network.limit.connections": ("{count} connections", "{count} 條連線"),
        "network.limit.open": ("{count} open connections", "同時 {count} 條連線"),
        "network.limit.bytes": ("{count} bytes", "{count} 位元組"),
        "network.limit.seconds": ("{count} seconds", "{count} 秒"),
        "network.forbidden": (
            "KeSi's sandbox refused network access to {host}: {why}. The setting is "
            'kesi.sandboxNetwork ("{mode}").',
            "KeSi 的沙箱拒絕連到 {host}：{why}。設定是 kesi.sandboxNetwork（「{mode}」）。",
        ),
        "network.refused": (
            "KeSi's sandbox refused network access to {host} ({why}).",
            "KeSi 的沙箱拒絕了對 {host} 的連線（{why}）。",
        ),
        "network.refused_limit": (
            "KeSi's sandbox stopped the command's network: {why}.",
            "KeSi 的沙箱停掉了這個指令的網路：{why}。",
        ),
        "network.allow_list_hint": (
            "Only the hosts of kesi.sandboxNetworkAllow are reached (sandboxNetwork is "
            '"allowList"); the user can add {host} there in their user settings.',
            "只連得到 kesi.sandboxNetworkAllow 裡的主機（sandboxNetwork 是「allowList」）；"
            "使用者可以在自己的使用者設定把 {host} 加進去。",
        ),
        "network.prompt": (
            "A sandboxed command tried to reach {host}, which is not in kesi.sandboxNetworkAllow. "
            "Allow network access to {host}?",
            "沙箱裡的指令想連到 {host}，它不在 kesi.sandboxNetworkAllow 裡。要讓它連 {host} 嗎？",
        ),
        "network.answer.always": ("Allow always", "以後都可以"),
        "network.told.session": (
            "The user allowed network access to {host} for this session; run the command again "
            "to use it.",
            "使用者允許這個 session 連到 {host}；要用的話請再執行一次指令。",
        ),
        "network.told.always": (
            "The user allowed network access to {host} always; run the command again to use it.",
            "使用者允許以後都可以連到 {host}；要用的話請再執行一次指令。",
        ),
        "network.told.denied": (
            "The user did not allow network access to {host}. Do not try to reach it again; "
            "work without it, or ask the user.",
            "使用者不允許連到 {host}。不要再試著連它；不用它完成工作，或問使用者。",
        ),
        "network.told.refused_before": (
            "The user already refused network access to {host} in this session.",
            "使用者在這個 session 已經拒絕過連到 {host}。",
        ),
        "network.rule_to_add": (
            'To allow {host} always, add it to "kesi.sandboxNetworkAllow" in your user settings: '
            '"kesi.sandboxNetworkAllow": {patterns}',
            "要以後都允許 {host}，請在使用者設定的「kesi.sandboxNetworkAllow」加上它："
            '"kesi.sandboxNetworkAllow": {patterns}',
        ),
        "network.granted_hosts": ("Allowed hosts: {items}", "已允許的主機：{items}"),
        "network.rules": (
            "Network ({mode}): allowed hosts {allow}; denied hosts {deny}",
            "網路（{mode}）：允許的主機 {allow}；禁止的主機 {deny}",
        ),
    }
)
MESSAGES.update(
    {
        "network.prompt_line": (
            "Network for shell commands, despite the line above: HTTP and HTTPS through KeSi's "
            "proxy (HTTPS_PROXY and HTTP_PROXY are set; DNS and direct connections do not "
            "work) to these hosts: {hosts}. Any other host is refused with HTTP 403 and named "
            "in the command's result; {then}",
            "網路（以這行為準）：shell 指令可以透過 KeSi 的代理（已設定 HTTPS_PROXY 與 "
            "HTTP_PROXY；DNS 與直接連線都不通）以 HTTP、HTTPS 連到這些主機：{hosts}。其他主機會"
            "得到 HTTP 403，並在指令結果裡列出；{then}",
        ),
        "network.prompt_line.ask": (
            "the user is then asked whether to allow it, and the result says what they decided.",
            "接著會問使用者要不要允許，結果會寫出使用者的決定。",
        ),
        "network.prompt_line.allowList": (
            "only the user can add a host, in their own settings (kesi.sandboxNetworkAllow).",
            "只有使用者能在自己的設定（kesi.sandboxNetworkAllow）加主機。",
        ),
    }
)
