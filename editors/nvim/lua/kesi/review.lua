---@mod kesi.review The diff view for `kesi/reviewEdit`: before and after side by side.
--- A new tab page holds two scratch buffers in `:diffthis` mode. Buffer-local mappings answer
--- accept / accept for this session / reject; closing the view in any way is a reject.
--- Nothing here touches the real file: the server applies an accepted edit afterwards.

local config = require('kesi.config')

local M = {}

---@class kesi.ReviewView
---@field run_id string?
---@field path string
---@field tab integer
---@field bufs integer[]
---@field wins integer[]
---@field origin integer the window the user was in
---@field augroup integer
---@field decided boolean
---@field on_decision fun(decision: string)

---@type table<integer, kesi.ReviewView> by tab page handle
M.views = {}

--- How many reviews were opened in this Neovim (they number the scratch buffers).
M.opened = 0

M.decisions = { accept = 'accept', accept_session = 'acceptSession', reject = 'reject' }

---@param text string
---@return string[]
local function lines_of(text)
  local lines = vim.split(text or '', '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  return lines
end

---@param name string
---@param lines string[]
---@param filetype string?
---@return integer
local function scratch(name, lines, filetype)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, name)
  vim.api.nvim_buf_set_lines(buf, 0, -1, true, lines)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  if filetype then
    vim.bo[buf].filetype = filetype
  end
  return buf
end

--- The row of the first change, so the cursor lands on it.
---@param before string
---@param after string
---@return integer
local function first_change(before, after)
  local ok, hunks = pcall(vim.diff, before, after, { result_type = 'indices' })
  if ok and type(hunks) == 'table' and hunks[1] then
    local start_b, count_b = hunks[1][3], hunks[1][4]
    return math.max(1, count_b > 0 and start_b or start_b + 1)
  end
  return 1
end

---@return string
local function key_help()
  local k = config.options.review.keys
  return ('%s accept · %s accept for this session · %s reject · %s close = reject'):format(
    k.accept,
    k.accept_session,
    k.reject,
    k.close
  )
end

---@param view kesi.ReviewView
---@param decision string
local function decide(view, decision)
  if view.decided then
    return
  end
  view.decided = true
  M.views[view.tab] = nil
  pcall(vim.api.nvim_del_augroup_by_id, view.augroup)
  -- Wiping the scratch buffers closes their windows, and with them the tab page.
  for _, buf in ipairs(view.bufs) do
    if vim.api.nvim_buf_is_valid(buf) then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
  end
  if vim.api.nvim_win_is_valid(view.origin) then
    pcall(vim.api.nvim_set_current_win, view.origin)
  end
  view.on_decision(decision)
end

---@param view kesi.ReviewView
local function map_keys(view)
  local keys = config.options.review.keys
  local actions = {
    { keys.accept, M.decisions.accept, 'KeSi: accept this edit' },
    { keys.accept_session, M.decisions.accept_session, 'KeSi: accept edits to this file for the session' },
    { keys.reject, M.decisions.reject, 'KeSi: reject this edit' },
    { keys.close, M.decisions.reject, 'KeSi: close the review (reject)' },
  }
  for _, buf in ipairs(view.bufs) do
    for _, action in ipairs(actions) do
      if action[1] and action[1] ~= '' then
        vim.keymap.set('n', action[1], function()
          decide(view, action[2])
        end, { buffer = buf, nowait = true, desc = action[3] })
      end
    end
  end
end

---@param view kesi.ReviewView
local function watch_close(view)
  for _, win in ipairs(view.wins) do
    vim.api.nvim_create_autocmd('WinClosed', {
      group = view.augroup,
      pattern = tostring(win),
      callback = function()
        vim.schedule(function()
          decide(view, M.decisions.reject)
        end)
      end,
    })
  end
  for _, buf in ipairs(view.bufs) do
    vim.api.nvim_create_autocmd({ 'BufWipeout', 'BufDelete' }, {
      group = view.augroup,
      buffer = buf,
      callback = function()
        vim.schedule(function()
          decide(view, M.decisions.reject)
        end)
      end,
    })
  end
end

--- Open the review of one edit. `on_decision` gets "accept", "acceptSession" or "reject".
---@param params { runId: string?, uri: string?, path: string?, before: string?, after: string?, diff: string? }
---@param on_decision fun(decision: string)
---@return kesi.ReviewView
function M.open(params, on_decision)
  M.opened = M.opened + 1
  local counter = M.opened
  local path = params.path or (params.uri and vim.uri_to_fname(params.uri)) or 'edit'
  -- A new file has no "before" (null, or an empty text).
  local created = params.before == nil or params.before == vim.NIL or params.before == ''
  local before = created and '' or params.before
  local after = type(params.after) == 'string' and params.after or ''
  local filetype = vim.filetype.match({ filename = path, contents = lines_of(after) })
  local origin = vim.api.nvim_get_current_win()

  local before_buf =
    scratch(('kesi://review/%d/before/%s'):format(counter, path), lines_of(before), filetype)
  local after_buf =
    scratch(('kesi://review/%d/after/%s'):format(counter, path), lines_of(after), filetype)

  vim.cmd('tab split')
  local tab = vim.api.nvim_get_current_tabpage()
  local left = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(left, before_buf)
  vim.cmd('rightbelow vsplit')
  local right = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(right, after_buf)
  for _, win in ipairs({ left, right }) do
    vim.api.nvim_win_call(win, function()
      vim.cmd('diffthis')
    end)
    vim.wo[win][0].foldlevel = 0
  end
  vim.wo[left][0].winbar = ('%%#DiffDelete# before %%* %s'):format(created and '(new file)' or path)
  vim.wo[right][0].winbar = ('%%#DiffAdd# KeSi proposes %%* %s  %%=%%#Comment#%s%%*'):format(
    path,
    key_help()
  )
  pcall(vim.api.nvim_win_set_cursor, right, { first_change(before, after), 0 })
  vim.cmd('normal! zz')

  local view = {
    run_id = params.runId,
    path = path,
    tab = tab,
    bufs = { before_buf, after_buf },
    wins = { left, right },
    origin = origin,
    augroup = vim.api.nvim_create_augroup(('kesi.review.%d'):format(counter), { clear = true }),
    decided = false,
    on_decision = on_decision,
  }
  M.views[tab] = view
  map_keys(view)
  watch_close(view)
  return view
end

--- Answer the open review in the current tab page (for commands and custom mappings).
---@param decision string "accept" | "acceptSession" | "reject"
---@return boolean answered
function M.answer(decision)
  local view = M.views[vim.api.nvim_get_current_tabpage()]
  if not view then
    for _, v in pairs(M.views) do
      view = v
      break
    end
  end
  if not view then
    return false
  end
  decide(view, decision)
  return true
end

--- Close the reviews of a run that ended (cancelled, failed): they are rejects now.
---@param run_id string?
function M.close_run(run_id)
  local closing = {} ---@type kesi.ReviewView[]
  for _, view in pairs(M.views) do
    if run_id == nil or view.run_id == run_id then
      table.insert(closing, view)
    end
  end
  for _, view in ipairs(closing) do
    decide(view, M.decisions.reject)
  end
end

--- The review as a coroutine-friendly request handler: waits for the user's answer.
---@param params table
---@return table result
function M.request(params)
  local co, is_main = coroutine.running()
  if not co or is_main then
    -- Not inside Neovim's server-request coroutine: we cannot wait, so say no.
    return { decision = M.decisions.reject }
  end
  M.open(params, function(decision)
    -- Scheduled, so the resume always comes after the yield below.
    vim.schedule(function()
      coroutine.resume(co, decision)
    end)
  end)
  return { decision = coroutine.yield() }
end

return M
