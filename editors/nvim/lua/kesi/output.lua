---@mod kesi.output The `kesi://output` buffer: what KeSi says and does, as it happens.
--- Model text streams in as prose; tool calls, their results, notices and the cost of each run
--- are lines of their own, each with a highlight group (see |kesi-highlights|). A search
--- sub-agent's text and tool lines are indented under the call that started it.

local config = require('kesi.config')

local M = {}

M.name = 'kesi://output'
M.ns = vim.api.nvim_create_namespace('kesi.output')

--- Highlight groups and what they link to by default.
M.highlights = {
  KeSiHeader = 'Title',
  KeSiTool = 'Function',
  KeSiToolOk = 'DiagnosticOk',
  KeSiToolError = 'DiagnosticError',
  KeSiNotice = 'DiagnosticWarn',
  KeSiStartup = 'Comment',
  KeSiInfo = 'DiagnosticInfo',
  KeSiCost = 'Comment',
  KeSiDone = 'DiagnosticOk',
  KeSiStopped = 'DiagnosticWarn',
  KeSiFailed = 'DiagnosticError',
  KeSiPending = 'DiagnosticInfo',
  KeSiPlanDone = 'DiagnosticOk',
  KeSiPlanActive = 'DiagnosticInfo',
  KeSiPlanPending = 'Comment',
  KeSiVerified = 'DiagnosticOk',
  KeSiUnverified = 'DiagnosticWarn',
  KeSiVerifyFailed = 'DiagnosticError',
}

function M.define_highlights()
  for group, link in pairs(M.highlights) do
    vim.api.nvim_set_hl(0, group, { link = link, default = true })
  end
end

--- Whether the last line holds model text that further deltas continue, and its indent.
local in_text = false
local text_indent = ''

--- The last notice of the current run, so the run's end does not repeat it.
local last_notice = nil ---@type string?

---@return integer?
local function find_buf()
  local buf = vim.fn.bufnr(M.name)
  if buf ~= -1 and vim.api.nvim_buf_is_valid(buf) then
    return buf
  end
  return nil
end

---@return integer
function M.buf()
  local buf = find_buf()
  if buf then
    return buf
  end
  buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, M.name)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].undolevels = -1
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'kesioutput'
  vim.keymap.set('n', 'q', '<Cmd>close<CR>', { buffer = buf, nowait = true, desc = 'Close' })
  in_text = false
  text_indent = ''
  return buf
end

---@return integer[] windows of the current tab page showing the output
local function windows()
  local buf = find_buf()
  if not buf then
    return {}
  end
  return vim.tbl_filter(function(win)
    return vim.api.nvim_win_get_buf(win) == buf
  end, vim.api.nvim_tabpage_list_wins(0))
end

function M.is_visible()
  return #windows() > 0
end

--- Show the output in a split of the current tab page (focus stays where it was unless `focus`).
---@param focus boolean?
---@return integer win
function M.open(focus)
  local win = windows()[1]
  if not win then
    local opts = config.options.output
    local previous = vim.api.nvim_get_current_win()
    vim.cmd(('%s %dsplit'):format(opts.position, opts.size))
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, M.buf())
    local wo = vim.wo[win][0]
    wo.number = false
    wo.relativenumber = false
    wo.signcolumn = 'no'
    wo.wrap = true
    wo.linebreak = true
    wo.winfixheight = not opts.position:find('vertical')
    wo.winfixwidth = opts.position:find('vertical') ~= nil
    M.scroll()
    if not focus then
      vim.api.nvim_set_current_win(previous)
    end
  end
  if focus then
    vim.api.nvim_set_current_win(win)
  end
  return win
end

function M.toggle()
  local wins = windows()
  if #wins > 0 then
    for _, win in ipairs(wins) do
      pcall(vim.api.nvim_win_close, win, false)
    end
  else
    M.open(true)
  end
end

--- Keep the end of the output in view, except in a window where the user moved up to read.
function M.scroll()
  local buf = find_buf()
  if not buf then
    return
  end
  local last = vim.api.nvim_buf_line_count(buf)
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    local row = vim.api.nvim_win_get_cursor(win)[1]
    if win ~= vim.api.nvim_get_current_win() or row >= last - 1 then
      vim.api.nvim_win_set_cursor(win, { last, 0 })
    end
  end
end

--- Run `fn(buf)` with the buffer modifiable.
---@param fn fun(buf: integer)
local function edit(fn)
  local buf = M.buf()
  vim.bo[buf].modifiable = true
  local ok, err = pcall(fn, buf)
  vim.bo[buf].modifiable = false
  if not ok then
    error(err)
  end
  M.scroll()
end

---@param buf integer
---@return boolean
local function is_empty(buf)
  return vim.api.nvim_buf_line_count(buf) == 1 and vim.api.nvim_buf_get_lines(buf, 0, 1, true)[1] == ''
end

--- Append whole lines, the first highlighted with `group` (or all, with `all`).
---@param lines string[]
---@param group string?
local function add_lines(lines, group)
  edit(function(buf)
    local start = vim.api.nvim_buf_line_count(buf)
    if is_empty(buf) then
      start = 0
      vim.api.nvim_buf_set_lines(buf, 0, -1, true, lines)
    else
      vim.api.nvim_buf_set_lines(buf, -1, -1, true, lines)
    end
    if group then
      for i, line in ipairs(lines) do
        vim.api.nvim_buf_set_extmark(buf, M.ns, start + i - 1, 0, {
          end_col = #line,
          hl_group = group,
        })
      end
    end
  end)
  in_text = false
end

--- Append lines, each highlighted with its own group (`groups[i]`, nil for none).
---@param lines string[]
---@param groups (string|false)[]
function M.lines(lines, groups)
  edit(function(buf)
    local start = vim.api.nvim_buf_line_count(buf)
    if is_empty(buf) then
      start = 0
      vim.api.nvim_buf_set_lines(buf, 0, -1, true, lines)
    else
      vim.api.nvim_buf_set_lines(buf, -1, -1, true, lines)
    end
    for i, line in ipairs(lines) do
      if groups[i] then
        vim.api.nvim_buf_set_extmark(buf, M.ns, start + i - 1, 0, { end_col = #line, hl_group = groups[i] })
      end
    end
  end)
  in_text = false
end

--- Replace the first `count` lines with `lines` (the plan block at the top), then `after(buf)`.
---@param count integer
---@param lines string[]
---@param after fun(buf: integer)?
function M.replace_top(count, lines, after)
  edit(function(buf)
    count = math.min(count, vim.api.nvim_buf_line_count(buf))
    if #lines == 0 and count >= vim.api.nvim_buf_line_count(buf) then
      vim.api.nvim_buf_set_lines(buf, 0, -1, true, {})
      in_text = false
    else
      vim.api.nvim_buf_set_lines(buf, 0, count, true, lines)
    end
    if after then
      after(buf)
    end
  end)
end

--- Model text, as it streams: continues the current paragraph, newlines start new lines.
--- With `indent` (a sub-agent's text) every line it starts is indented.
---@param text string
---@param indent string?
function M.text(text, indent)
  indent = indent or ''
  if text == '' then
    return
  end
  if in_text and indent ~= text_indent then
    in_text = false -- the sub-agent's text never continues the main text's line, nor back
  end
  edit(function(buf)
    local pieces = vim.split(text, '\n', { plain = true })
    for i = in_text and 2 or 1, #pieces do
      pieces[i] = indent .. pieces[i]
    end
    if not in_text then
      if is_empty(buf) then
        vim.api.nvim_buf_set_lines(buf, 0, -1, true, pieces)
      else
        vim.api.nvim_buf_set_lines(buf, -1, -1, true, pieces)
      end
    else
      local row = vim.api.nvim_buf_line_count(buf) - 1
      local col = #vim.api.nvim_buf_get_lines(buf, row, row + 1, true)[1]
      vim.api.nvim_buf_set_text(buf, row, col, row, col, pieces)
    end
  end)
  in_text = true
  text_indent = indent
end

--- A short, readable form of a tool's input for its line in the output.
---@param tool string
---@param input table?
---@return string
function M.describe_input(tool, input)
  if type(input) ~= 'table' or type(input.items) == 'table' then
    return '' -- the todo tool: the plan itself is at the top of the output
  end
  for _, key in ipairs({ 'command', 'task', 'file_path', 'path', 'pattern', 'glob' }) do
    if type(input[key]) == 'string' then
      local value = input[key]
      if key == 'pattern' and type(input.path) == 'string' and input.path ~= '' then
        value = ('%s in %s'):format(value, input.path)
      end
      return (value:gsub('\n', ' ⏎ '))
    end
  end
  local ok, json = pcall(vim.json.encode, input)
  return ok and json or ''
end

---@param title string
function M.header(title)
  last_notice = nil
  local stamp = os.date('%H:%M:%S')
  add_lines({ ('── %s · %s ──'):format(title, stamp) }, 'KeSiHeader')
end

---@param tool string
---@param input table?
---@param indent string? a sub-agent's tool call: indented under its parent
function M.tool_start(tool, input, indent)
  local detail = M.describe_input(tool, input)
  local line = ('%s▸ %s%s'):format(indent or '', tool, detail ~= '' and (' ' .. detail) or '')
  add_lines({ line }, 'KeSiTool')
end

---@param tool string
---@param is_error boolean
---@param summary string?
---@param indent string?
function M.tool_end(tool, is_error, summary, indent)
  local text = (summary and summary ~= '') and summary or tool
  text = text:gsub('\n', ' ⏎ ')
  if is_error then
    add_lines({ ('%s  ✗ %s'):format(indent or '', text) }, 'KeSiToolError')
  else
    add_lines({ ('%s  ✓ %s'):format(indent or '', text) }, 'KeSiToolOk')
  end
end

--- Notices that only inform (a resumed conversation, a summary of it) are not warnings.
local calm = { resume = true, compaction = true, info = true }

---@param text string
---@param once boolean? skip it when it repeats the run's last notice
---@param kind string? the server's notice kind
function M.notice(text, once, kind)
  if once and text == last_notice then
    return
  end
  last_notice = text
  local lines = vim.split(text, '\n', { plain = true })
  lines[1] = (calm[kind or ''] and 'ℹ ' or '! ') .. lines[1]
  add_lines(lines, calm[kind or ''] and 'KeSiInfo' or 'KeSiNotice')
end

--- Token counts and cost of a summary or a search (one line of the bill).
---@param usage table
---@return string
function M.format_bill(usage)
  local parts = {}
  if type(usage.requests) == 'number' and usage.requests > 1 then
    table.insert(parts, ('%d requests'):format(usage.requests))
  end
  table.insert(
    parts,
    ('%d in / %d out tokens (%d cache read, %d cache write)'):format(
      usage.inputTokens or 0,
      usage.outputTokens or 0,
      usage.cacheReadTokens or 0,
      usage.cacheWriteTokens or 0
    )
  )
  table.insert(parts, ('cost %s'):format(require('kesi.runs').format_cost(usage.costUsd or 0)))
  return table.concat(parts, ' · ')
end

--- A line of the bill of its own: what a summary or a search cost.
---@param label string "summary of the conversation" | "search"
---@param usage table
---@param indent string?
function M.bill(label, usage, indent)
  add_lines({ ('%s$ %s: %s'):format(indent or '', label, M.format_bill(usage)) }, 'KeSiCost')
end

--- A start-up line (the working directory, the sandbox), indented as the seed prints it.
---@param text string
function M.startup(text)
  add_lines({ '  ' .. text }, 'KeSiStartup')
end

---@param text string
function M.edit_applied(text)
  add_lines({ ('✎ %s'):format(text) }, 'KeSiToolOk')
end

local status_groups = {
  done = 'KeSiDone',
  cancelled = 'KeSiStopped',
  limit = 'KeSiStopped',
  failed = 'KeSiFailed',
}

local verdict_groups = {
  verified = 'KeSiVerified',
  unverified = 'KeSiUnverified',
  failed = 'KeSiVerifyFailed',
}
local verdict_marks = { verified = '✓', unverified = '?', failed = '✗' }

--- The server's verdict on the run's changes (`kesi/runFinished.verified`), or nil: its word
--- (the server's own, `text`, when it sent one) and its line for the output.
---@param verified table?
---@return string? word, string? line
function M.verdict(verified)
  if type(verified) ~= 'table' or type(verified.status) ~= 'string' then
    return nil, nil
  end
  local word = type(verified.text) == 'string' and verified.text
    or (verified.status == 'failed' and 'verification failed' or verified.status)
  local line = ('%s %s'):format(verdict_marks[verified.status] or '·', word)
  if type(verified.detail) == 'string' and verified.detail ~= '' then
    line = ('%s: %s'):format(line, verified.detail)
  end
  return word, line
end

--- The end of a run: the server's verdict on its changes (when it gave one), then its footer
--- line (`kesi.runs.footer`: the server's status word, the verdict's and the bill).
---@param status string
---@param footer string
---@param verified table? `kesi/runFinished.verified`
function M.finish(status, footer, verified)
  local _, line = M.verdict(verified)
  if line then
    add_lines({ line }, verdict_groups[verified.status])
  end
  add_lines({ '── ' .. footer }, status_groups[status] or 'KeSiCost')
end

--- Remove everything (`:KeSiOutput clear`).
function M.clear()
  require('kesi.plan').forget()
  edit(function(buf)
    vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
    vim.api.nvim_buf_set_lines(buf, 0, -1, true, {})
  end)
  in_text = false
end

return M
