---@mod kesi.output The `kesi://output` buffer: what KeSi says and does, as it happens.
--- Model text streams in as prose; tool calls, their results, notices and the cost of each run
--- are lines of their own, each with a highlight group (see |kesi-highlights|). The server
--- renders those lines in the session's locale (a search sub-agent's indented under the call
--- that started it); this buffer places and colours them.

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

--- The in-place line of a call whose input is still arriving (`toolInput`, Day 17), followed
--- by an extmark of its own so the plan block above it may grow or shrink.
local progress_ns = vim.api.nvim_create_namespace('kesi.output.progress')
local progress_mark = nil ---@type integer?

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
  progress_mark = nil
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

--- Remove the in-place line, if one is shown: whatever comes next replaces it.
---@param buf integer
local function settle(buf)
  if not progress_mark then
    return
  end
  local row = vim.api.nvim_buf_get_extmark_by_id(buf, progress_ns, progress_mark, {})[1]
  vim.api.nvim_buf_clear_namespace(buf, progress_ns, 0, -1)
  progress_mark = nil
  if row and row < vim.api.nvim_buf_line_count(buf) then
    vim.api.nvim_buf_set_lines(buf, row, row + 1, true, {})
  end
end

--- Run `fn(buf)` with the buffer modifiable (the in-place line gives way first, unless `keep`).
---@param fn fun(buf: integer)
---@param keep boolean?
local function edit(fn, keep)
  local buf = M.buf()
  vim.bo[buf].modifiable = true
  if not keep then
    settle(buf)
  end
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

--- Show `line` (the server's progress line of a call whose input is arriving) in place of the
--- last one: each report replaces it, and the next thing written removes it.
---@param line string?
function M.in_place(line)
  if type(line) ~= 'string' or line == '' then
    return
  end
  edit(function(buf)
    local row = progress_mark and vim.api.nvim_buf_get_extmark_by_id(buf, progress_ns, progress_mark, {})[1]
    if row then
      vim.api.nvim_buf_set_lines(buf, row, row + 1, true, { line })
    elseif is_empty(buf) then
      row = 0
      vim.api.nvim_buf_set_lines(buf, 0, -1, true, { line })
    else
      row = vim.api.nvim_buf_line_count(buf)
      vim.api.nvim_buf_set_lines(buf, -1, -1, true, { line })
    end
    vim.api.nvim_buf_clear_namespace(buf, progress_ns, 0, -1)
    progress_mark = vim.api.nvim_buf_set_extmark(buf, progress_ns, row, 0, { end_col = #line, hl_group = 'KeSiTool' })
  end, true)
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

---@param title string
function M.header(title)
  local stamp = os.date('%H:%M:%S')
  add_lines({ ('── %s · %s ──'):format(title, stamp) }, 'KeSiHeader')
end

--- Notices that only inform (a resumed conversation, a summary of it) are not warnings, and
--- Day 15's start-up lines (the working directory, the sandbox) are printed plainly.
local calm = { resume = true, compaction = true, info = true }
local startup = { workspace = true, sandbox = true }

--- The highlight groups of a `kesi/stream` event's lines: its first line's, and the rest's
--- (a search's bill after its call's result; an edit's diff has none).
---@param params table
---@return string? first, string? rest
function M.groups(params)
  local kind = params.kind
  if kind == 'toolStart' then
    return 'KeSiTool', 'KeSiTool'
  elseif kind == 'toolEnd' then
    return params.isError == true and 'KeSiToolError' or 'KeSiToolOk', 'KeSiCost'
  elseif kind == 'notice' then
    local group = startup[params.notice] and 'KeSiStartup' or calm[params.notice] and 'KeSiInfo' or 'KeSiNotice'
    return group, group
  elseif kind == 'usage' then
    return 'KeSiCost', 'KeSiCost'
  elseif kind == 'edit' then
    return 'KeSiToolOk', nil
  end
  return nil, nil
end

--- The lines the server rendered for an event or a run's end (`lines`), one buffer line each.
---@param params table
---@return string[]
function M.rendered(params)
  local lines = type(params.lines) == 'table' and vim.tbl_map(tostring, params.lines) or {}
  return #lines > 0 and vim.split(table.concat(lines, '\n'), '\n', { plain = true }) or {}
end

--- A `kesi/stream` event's lines, as the server wrote them (a sub-agent's already indented).
---@param params table
function M.story(params)
  local lines, first, rest = M.rendered(params), M.groups(params)
  local groups = vim.tbl_map(function()
    return rest or false
  end, lines)
  groups[1] = first or false
  if #lines > 0 then
    M.lines(lines, groups)
  end
end

local status_groups = {
  done = 'KeSiDone',
  cancelled = 'KeSiStopped',
  limit = 'KeSiStopped',
  failed = 'KeSiFailed',
}

M.verdict_groups = {
  verified = 'KeSiVerified',
  unverified = 'KeSiUnverified',
  failed = 'KeSiVerifyFailed',
}

--- The end of a run (`kesi/runFinished`), in the server's words: the story's close (why it
--- stopped, the verdict and its detail) but its bill, then the run's last line (its status,
--- the verdict and the bill, `line`) as the footer.
---@param params table
function M.finish(params)
  local bill = type(params.bill) == 'string' and params.bill ~= '' and params.bill or '\0'
  local close = vim.tbl_filter(function(line)
    return not line:find(bill, 1, true)
  end, M.rendered(params))
  local verified = type(params.verified) == 'table' and params.verified or {}
  if #close > 0 then
    add_lines(close, M.verdict_groups[verified.status] or 'KeSiNotice')
  end
  add_lines({ '── ' .. tostring(params.line or params.status) }, status_groups[params.status])
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
