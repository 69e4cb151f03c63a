"""Background tasks (issue 28): the tools' descriptions and results, the notes the model gets,
and the lines every client shows (key -> (English, Traditional Chinese)).

The seed stops at Day 11's foreground command and names background tasks as the next step, so
there is no seed wording to keep; the Chinese follows the seed's run_command sentences.
"""

from __future__ import annotations

from typing import Final

_TOOLS: Final[dict[str, tuple[str, str]]] = {
    "tools.param.run_command.background": (
        "true to start the command in the background and return at once with a task id and its "
        "first output (for a dev server, a watcher or a long build); false or absent to wait "
        "for it to end",
        "true 表示在背景啟動指令，立刻回傳工作編號與最初的輸出（適合開發伺服器、監看程式或很久的"
        "建置）；false 或不給表示等指令結束",
    ),
    "tools.desc.task_output": (
        "Read the output of a background task started with run_command(background: true): the "
        "output printed since your last read (or, with lines, its last lines), whether it is "
        "still running, and its exit code once it ended. It returns at once; it does not wait.",
        "讀取用 run_command(background: true) 啟動的背景工作的輸出：上次讀取之後的新輸出（或用 "
        "lines 看最後幾行）、是否還在執行、結束後的結束碼。會立刻回傳，不會等待。",
    ),
    "tools.param.task_output.task_id": ("the task id, e.g. 1", "工作編號，例如 1"),
    "tools.param.task_output.lines": (
        "optional: the last this many lines instead of the new output",
        "可選：改看最後這麼多行，而不是新輸出",
    ),
    "tools.desc.task_stop": (
        "Stop a background task: SIGTERM to its whole process group, then SIGKILL after 3 "
        "seconds. Stop the tasks you started once you no longer need them.",
        "停止一個背景工作：對它整個行程群組送 SIGTERM，3 秒後送 SIGKILL。"
        "不再需要的背景工作請停掉。",
    ),
    "tools.param.task_stop.task_id": ("the task id, e.g. 1", "工作編號，例如 1"),
}

_RESULTS: Final[dict[str, tuple[str, str]]] = {
    "background.started": (
        "Started background task {id}: `{command}` (still running). Its first output:",
        "已在背景啟動工作 {id}：`{command}`（仍在執行）。最初的輸出：",
    ),
    "background.ended_at_once": (
        "Background task {id} `{command}` already ended: {state}. Its output:",
        "背景工作 {id} `{command}` 已經結束：{state}。輸出：",
    ),
    "background.how": (
        'Read it with task_output(task_id: "{id}"); stop it with task_stop(task_id: "{id}").',
        '用 task_output(task_id: "{id}") 讀取，用 task_stop(task_id: "{id}") 停止。',
    ),
    "background.limit": (
        "Error: {count} background tasks are already running in this session ({tasks}); at "
        "most {count} may run at once. Stop one with task_stop first, or run the command "
        "without background.",
        "錯誤：這個工作階段已經有 {count} 個背景工作在執行（{tasks}），同時最多 {count} 個。"
        "請先用 task_stop 停掉一個，或不用背景執行這個指令。",
    ),
    "background.no_network": (
        "Error: cannot start a background task: the sandbox could not make the session's "
        "shared network namespace ({error}). Run the command in the foreground instead.",
        "錯誤：無法啟動背景工作：沙箱無法建立這個工作階段共用的網路命名空間（{error}）。"
        "請改在前景執行這個指令。",
    ),
    "background.unknown": (
        "Error: there is no background task {id} in this session. Tasks: {tasks}.",
        "錯誤：這個工作階段沒有背景工作 {id}。現有的工作：{tasks}。",
    ),
    "background.none": ("none", "沒有"),
    "background.header": ("Task {id} `{command}`: {state}.", "工作 {id} `{command}`：{state}。"),
    "background.no_new_output": ("(no new output)", "（沒有新的輸出）"),
    "background.dropped": (
        "({count} bytes printed before this were no longer kept: a task keeps its last {limit} "
        "bytes)",
        "（在這之前的 {count} bytes 已經不在了：每個工作只保留最後 {limit} bytes）",
    ),
    "background.already_ended": (
        "Task {id} `{command}` had already ended ({state}); there is nothing to stop.",
        "工作 {id} `{command}` 早已結束（{state}），沒有東西可以停止。",
    ),
    "background.stopped_now": (
        "Stopped task {id} `{command}`: {state}. Its last output:",
        "已停止工作 {id} `{command}`：{state}。最後的輸出：",
    ),
    "background.state.running": ("running", "執行中"),
    "background.state.exited": ("exited with code {code}", "已結束，結束碼 {code}"),
    "background.state.signal": ("ended by signal {signal}", "被訊號 {signal} 結束"),
    "background.state.stopped": ("stopped", "已停止"),
    "background.state.timed_out": (
        "stopped after running {seconds} seconds (the taskTimeout limit)",
        "執行 {seconds} 秒後被停止（taskTimeout 上限）",
    ),
    "background.note.title": (
        "[KeSi] Background tasks that ended since your last request:",
        "[KeSi] 上次請求之後結束的背景工作：",
    ),
    "background.note.task": (
        "- task {id} `{command}` {state}; last lines:",
        "- 工作 {id} `{command}` {state}；最後幾行：",
    ),
    "background.note.no_output": (
        "- task {id} `{command}` {state}; it printed nothing.",
        "- 工作 {id} `{command}` {state}；沒有任何輸出。",
    ),
    "background.prompt.running": (
        "- Background tasks running now (read with task_output, stop with task_stop when "
        "done): {tasks}.",
        "- 目前在背景執行的工作（用 task_output 讀取，用完以 task_stop 停止）：{tasks}。",
    ),
    "background.prompt.task": (
        "task {id} `{command}` since {started}",
        "工作 {id} `{command}`（{started} 起）",
    ),
    "background.cancelled": (
        "Background tasks are still running after the cancel (they are yours now): {tasks}. "
        "Stop them with {how}.",
        "取消之後背景工作仍在執行（交給你了）：{tasks}。要停止請用 {how}。",
    ),
}

_LINES: Final[dict[str, tuple[str, str]]] = {
    # kesi.tasks (every client shows these as they are): id, command, state, started, last line.
    "background.line": (
        "#{id} {command} · {state} · started {started}{last}",
        "#{id} {command} · {state} · {started} 開始{last}",
    ),
    "background.line.last": (" · {line}", " · {line}"),
    "background.list.empty": ("No background tasks in this folder.", "這個資料夾沒有背景工作。"),
    "background.log.started": (
        "[KeSi] background task {id} started: {command}",
        "[KeSi] 背景工作 {id} 已啟動：{command}",
    ),
    "background.log.ended": (
        "[KeSi] background task {id} {state}: {command}",
        "[KeSi] 背景工作 {id} {state}：{command}",
    ),
    "background.stop.done": ("Stopped task {id}: {state}.", "已停止工作 {id}：{state}。"),
    "background.stop.unknown": (
        "There is no background task {id} in this folder.",
        "這個資料夾沒有背景工作 {id}。",
    ),
    "background.stop.ended": (
        "Task {id} had already ended ({state}).",
        "工作 {id} 早已結束（{state}）。",
    ),
    # How each editor stops a task (the cancel's notice names the editor's own way).
    "background.how.vscode": (
        "the KeSi tasks item in the status bar (Stop)",
        "狀態列的 KeSi 背景工作項目（停止）",
    ),
    "background.how.nvim": (":KeSiTaskStop", ":KeSiTaskStop"),
    "background.how.emacs": ("M-x kesi-task-stop", "M-x kesi-task-stop"),
    "background.how.helix": (
        ":lsp-workspace-command kesi.stopTask",
        ":lsp-workspace-command kesi.stopTask",
    ),
    "background.how.lsp": ("the kesi.stopTask command", "kesi.stopTask 指令"),
    "background.how.acp": (
        "a message asking KeSi to stop them (task_stop)",
        "一則請 KeSi 停掉它們的訊息（task_stop）",
    ),
}

MESSAGES: Final[dict[str, tuple[str, str]]] = {**_TOOLS, **_RESULTS, **_LINES}
