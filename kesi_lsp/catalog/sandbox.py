"""Messages of the `sandbox` domain: key -> (English, Traditional Chinese as the seed words it).

The status lines are the seed's Day 15 `sandbox_status` (shown to the user), the prompt lines
its Day 16 environment block (shown to the model): three variants (off, on, on but void because
the workspace is home or above) and the hint about sandbox errors, given only when a sandbox is
on. The Linux (bubblewrap) variants and the limit messages are new; the Chinese follows the
seed's voice.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    # The user's status line (seed: 指令沙箱：{status}).
    "sandbox.status.label": ("Command sandbox: {status}", "指令沙箱：{status}"),
    "sandbox.status.off": (
        "off (setting kesi.sandbox = off)",
        "關閉（設定 kesi.sandbox = off）",
    ),
    "sandbox.status.unavailable": (
        "no sandbox available ({detail}); commands run directly under your account",
        "沒有可用的沙箱（{detail}），指令會直接在你的帳號下執行",
    ),
    "sandbox.status.void": (
        "the workspace boundary is meaningless: the workspace is your home directory or above "
        "it; open another folder",
        "工作目錄邊界形同虛設：目前目錄是家目錄或它的上層，換一個目錄啟動",
    ),
    "sandbox.status.on": ("on ({program})", "開啟（{program}）"),
    # The model's environment lines (seed Day 16 environment_block).
    "sandbox.prompt.off": (
        "Command sandbox: off. Shell commands run directly with the user's permissions; "
        "there are no extra limits on what they read, write or reach on the network. "
        "Be especially careful before acting.",
        "指令沙箱：沒有開啟。shell 指令會用使用者的權限直接執行，"
        "讀寫範圍跟網路都沒有額外限制，動手前請格外小心。",
    ),
    # The seed's void line ended "and the names above are still unreadable": true of its
    # Seatbelt profile, which closed the whole ignore list; KeSi's sandboxes keep tool state
    # (.git, .venv, node_modules, ...) readable, so the void lines say what they really close.
    "sandbox.prompt.void": (
        "Command sandbox: on, but the workspace is the home directory or above it, so the "
        "rule that limits reads and writes to the workspace has no effect: shell commands can "
        "read and write everything in it, other projects and folders such as ~/.ssh included. "
        "Be especially careful before acting. The network is still unreachable. Inside the "
        "workspace, .env, .env.* and .DS_Store files are still unreadable; .git (its config "
        "included), .venv, venv, node_modules and __pycache__ can be read but not written.",
        "指令沙箱：開啟，但工作目錄是家目錄或它的上層，"
        "限制讀寫範圍的那一條等於沒有作用：shell 指令讀寫得到裡面的一切，"
        "其他專案跟 ~/.ssh 這類資料夾也包括在內，動手前請格外小心。網路仍然不通。"
        "工作目錄裡的 .env、.env.*、.DS_Store 仍然讀不到；"
        ".git（包括 .git/config）、.venv、venv、node_modules、__pycache__ 可以讀但不能寫。",
    ),
    "sandbox.prompt.void_bubblewrap": (
        "Command sandbox: on (bubblewrap), but the workspace is the home directory or above "
        "it, so the rule that limits reads and writes to the workspace has no effect: shell "
        "commands can read and write everything in it, other projects and folders such as "
        "~/.ssh included. Be especially careful before acting. The network is still "
        "unreachable. Inside the workspace, .env files are still unreadable and .git/config "
        "reads as empty; .git, .venv, venv, node_modules and __pycache__ can be read but not "
        "written.",
        "指令沙箱：開啟（bubblewrap），但工作目錄是家目錄或它的上層，"
        "限制讀寫範圍的那一條等於沒有作用：shell 指令讀寫得到裡面的一切，"
        "其他專案跟 ~/.ssh 這類資料夾也包括在內，動手前請格外小心。網路仍然不通。"
        "工作目錄裡的 .env 這類檔案仍然讀不到，.git/config 讀起來是空的；"
        ".git、.venv、venv、node_modules、__pycache__ 可以讀但不能寫。",
    ),
    "sandbox.prompt.on": (
        "Command sandbox: on. Shell commands cannot read user data outside the workspace, "
        "may write only to the workspace, the system temp folder and the necessary devices, "
        "and cannot reach the network. Necessary system paths, toolchains and the active "
        "environment stay readable. Inside the workspace, .env, .env.* and .DS_Store files are "
        "unreadable; .git (its config included, which may hold tokens in remote URLs), .venv, "
        "venv, node_modules and __pycache__ can be read but not written. This is a deliberate "
        "limit, not a broken environment.",
        "指令沙箱：開啟。shell 指令讀不到工作目錄以外的使用者資料，"
        "寫入只開放工作目錄、系統暫存跟必要的裝置介面，也連不到網路。"
        "必要的系統路徑、工具鏈跟目前啟用的環境仍然可以讀取。"
        "工作目錄裡的 .env、.env.*、.DS_Store 讀不到；"
        ".git（包括可能在遠端網址裡帶著權杖的 .git/config）、.venv、venv、node_modules、"
        "__pycache__ 可以讀但不能寫。這是刻意的限制，不是環境壞掉。",
    ),
    "sandbox.prompt.on_bubblewrap": (
        "Command sandbox: on (bubblewrap). Shell commands cannot read user data outside the "
        "workspace (of the home directory only the toolchain folders are visible), may write "
        "only to the workspace and a private temp folder that is discarded afterwards, and "
        "cannot reach the network. The folders on PATH and the active environment (virtualenv, "
        "conda, pyenv, nvm) are readable but not writable. Inside the workspace, .env files "
        "are unreadable and .git/config reads as empty, so programs that only read (grep -r, "
        "rg, diff -r) run without asking; .git, .venv, venv, node_modules and __pycache__ can "
        "be read but not written: git commit, git checkout or installing packages must be done "
        "by the user. This is a deliberate limit, not a broken environment.",
        "指令沙箱：開啟（bubblewrap）。shell 指令讀不到工作目錄以外的使用者資料"
        "（家目錄只看得到工具鏈資料夾），寫入只開放工作目錄跟用完就丟的私有暫存目錄，"
        "也連不到網路。PATH 上的資料夾跟目前啟用的環境（virtualenv、conda、pyenv、nvm）"
        "可以讀但不能寫。工作目錄裡的 .env 這類檔案讀不到，.git/config 讀起來是空的，"
        "所以只會讀取的程式（grep -r、rg、diff -r）不用先問就能執行；"
        ".git、.venv、venv、node_modules、__pycache__ 可以讀但不能寫，"
        "git commit、git checkout 或安裝套件要請使用者自己做。這是刻意的限制，不是環境壞掉。",
    ),
    "sandbox.prompt.hint": (
        "When a shell command fails with errors such as Operation not permitted or Could not "
        "resolve host, the sandbox most likely blocked it; the file is not missing and the "
        "network is not broken. Say so when you report it; do not conclude that something "
        "does not exist.",
        "shell 指令出現 Operation not permitted、Could not resolve host "
        "這類錯誤時，很可能是沙箱擋的，不是檔案不存在或網路故障。"
        "回報時要把這個可能性講出來，不要直接斷定東西不存在。",
    ),
    "sandbox.prompt.hint_bubblewrap": (
        "When a shell command fails with errors such as Permission denied, Read-only file "
        "system, Could not resolve host or Network is unreachable, or says No such file or "
        "directory for a path outside the workspace, the sandbox most likely blocked it; the "
        "file is not missing and the network is not broken. Say so when you report it; do not "
        "conclude that something does not exist.",
        "shell 指令出現 Permission denied、Read-only file system、Could not resolve host、"
        "Network is unreachable 這類錯誤，或是工作目錄外的路徑顯示 No such file or directory 時，"
        "很可能是沙箱擋的，不是檔案不存在或網路故障。"
        "回報時要把這個可能性講出來，不要直接斷定東西不存在。",
    ),
    # Written into the command's output by the guard when it stops a command.
    "sandbox.limit.processes": (
        "(sandbox: the command started more than {limit} processes; all of them were stopped)",
        "（沙箱：這個指令開了超過 {limit} 個行程，已經全部終止）",
    ),
    "sandbox.limit.processes_refused": (
        "(sandbox: the command reached the limit of {limit} processes; the processes it tried "
        "to start beyond that were refused)",
        "（沙箱：這個指令的行程數碰到了 {limit} 個的上限，超過的部分沒有開成）",
    ),
    "sandbox.limit.file_size": (
        "(sandbox: a file reached the size limit of {limit}; the process writing it was stopped)",
        "（沙箱：有檔案寫到了 {limit} 的大小上限，寫檔的行程被終止）",
    ),
    "sandbox.limit.disk": (
        "(sandbox: the command used up more than {limit} of disk space or left the disk "
        "nearly full; it was stopped)",
        "（沙箱：這個指令用掉超過 {limit} 的磁碟空間，或讓磁碟快滿了，已經終止）",
    ),
    "sandbox.limit.memory": (
        "(sandbox: the command reached the memory limit of {limit}; the process using the most "
        "memory was stopped. The user can raise the limit with the commandMemoryLimit setting.)",
        "（沙箱：這個指令用到了 {limit} 的記憶體上限，用最多記憶體的行程被終止。"
        "使用者可以用 commandMemoryLimit 設定調高上限。）",
    ),
    "sandbox.too_large": (
        "Error: the workspace is too large for the sandbox to find every file it must hide "
        "(more than {limit} entries outside .git, node_modules and the like); the command was "
        "not run. Ask the user to open a smaller folder, or to turn the sandbox off.",
        "錯誤：工作目錄太大，沙箱沒辦法找出每一個要藏起來的檔案"
        "（.git、node_modules 這類目錄以外超過 {limit} 個項目），指令沒有執行。"
        "請使用者開一個小一點的資料夾，或是把沙箱關掉。",
    ),
    # Appended to a command's result when its output names something the sandbox hid (new).
    "sandbox.note.hidden": (
        "(sandbox: {paths} exists on this machine but is hidden from commands: outside the "
        "workspace they see only system folders, toolchains and the active environment. It is "
        "not missing; if the command needs it, tell the user.)",
        "（沙箱：{paths} 在這台機器上是存在的，只是指令看不到：工作目錄以外，"
        "指令只看得到系統資料夾、工具鏈跟目前啟用的環境。它沒有不見；"
        "如果指令需要它，請告訴使用者。）",
    ),
    "sandbox.note.secret": (
        "(sandbox: {paths} is closed to commands because it may hold secrets; the file is "
        "there, it just cannot be read.)",
        "（沙箱：{paths} 可能放著機密，所以不開放給指令讀取；檔案是在的，只是讀不到。）",
    ),
    "sandbox.note.memory": (
        "(sandbox: each process of a command may use at most {limit} of memory (address "
        "space); the allocation failure above may be that limit, not a lack of memory on this "
        "machine. The user can raise it with the commandMemoryLimit setting.)",
        "（沙箱：指令的每個行程最多只能用 {limit} 的記憶體（位址空間）；"
        "上面配置記憶體失敗，可能是這個上限，不是這台機器的記憶體不夠。"
        "使用者可以用 commandMemoryLimit 設定調高。）",
    ),
    "sandbox.note.socket": (
        "(sandbox: {paths} is a socket of a program outside the sandbox; commands may not "
        "connect to it, as they may not reach the network. Sockets a command creates itself "
        "work. If the command needs that service, ask the user to run it.)",
        "（沙箱：{paths} 是沙箱外面某個程式的 socket；指令不能連過去，就像不能連網路一樣。"
        "指令自己建立的 socket 可以用。如果指令需要那個服務，請使用者自己執行。）",
    ),
    "sandbox.note.read_only": (
        "(sandbox: the command tried to write where commands may only read: outside the "
        "workspace and the temp folder, or inside .git, .venv, venv, node_modules or "
        "__pycache__. Ask the user to run this step themselves.)",
        "（沙箱：這個指令想寫入只開放讀取的地方：工作目錄跟暫存目錄以外，"
        "或是 .git、.venv、venv、node_modules、__pycache__ 裡面。"
        "這一步請使用者自己執行。）",
    ),
    # Raised to the host when the `sandbox` setting asks for something this machine lacks.
    "sandbox.error.platform": (
        "The sandbox setting is {mode}, but {mode} only exists on {platform}; this machine "
        "is {current}. Set kesi.sandbox to auto or off.",
        "沙箱設定是 {mode}，但 {mode} 只在 {platform} 上才有，這台機器是 {current}。"
        "請把 kesi.sandbox 設成 auto 或 off。",
    ),
    "sandbox.error.missing": (
        "The sandbox setting is {mode}, but {program} was not found on PATH. {install}",
        "沙箱設定是 {mode}，但 PATH 裡找不到 {program}。{install}",
    ),
    "sandbox.error.install_bubblewrap": (
        "Install bubblewrap (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install "
        "bubblewrap), or set kesi.sandbox to off.",
        "請安裝 bubblewrap（Debian/Ubuntu：apt install bubblewrap；Fedora：dnf install "
        "bubblewrap），或把 kesi.sandbox 設成 off。",
    ),
    "sandbox.error.install_seatbelt": (
        "sandbox-exec ships with macOS in /usr/bin; set kesi.sandbox to off if it is gone.",
        "sandbox-exec 是 macOS 內建在 /usr/bin 的工具；如果它不見了，請把 kesi.sandbox 設成 off。",
    ),
    "sandbox.error.broken": (
        "The sandbox setting is {mode}: {program} is installed but cannot create a sandbox "
        "here ({error}). On Ubuntu 24.04 and later, unprivileged user namespaces may be "
        "restricted by AppArmor. Set kesi.sandbox to off to run commands without it.",
        "沙箱設定是 {mode}：{program} 有安裝，但在這台機器上建立不了沙箱（{error}）。"
        "Ubuntu 24.04 以後的版本可能用 AppArmor 限制了非特權的 user namespace。"
        "要不用沙箱執行指令，請把 kesi.sandbox 設成 off。",
    ),
}
