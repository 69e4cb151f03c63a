---@mod kesi.review The diff view for `kesi/reviewEdit`: before and after side by side.
--- A new tab page holds two scratch buffers in `:diffthis` mode, under the server's title and
--- question; buffer-local mappings give the server's answers, listed in its order (Deny first,
--- the seed's words under zh-TW); closing the view in any way is a reject.
--- Hunk by hunk (design.md §2.9): `]c` / `[c` move between hunks, `gh` accepts and `gH`
--- rejects the hunk under the cursor; the right side shows what would land, and once every
--- hunk is decided the answer goes (the text accepted, when some hunks were rejected).
--- Nothing here touches the real file: the server applies an accepted edit afterwards.

local config = require('kesi.config')
local hunks_mod = require('kesi.review_hunks')

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
---@field on_decision fun(decision: string, after: string?)
---@field before_text string
---@field after_text string
---@field before_lines string[]
---@field after_lines string[]
---@field hunks kesi.ReviewHunk[]
---@field ns integer

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

--- Text for a winbar: `%` doubled, so the server's words are never read as statusline items.
---@param text string
---@return string
local function winbar_text(text)
  return (tostring(text):gsub('%%', '%%%%'):gsub('\n', ' '))
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

--- The keys that answer each decision (the close key rejects too).
---@return table<string, string>
local function decision_keys()
  local k = config.options.review.keys
  local reject = k.close and k.close ~= '' and ('%s/%s'):format(k.reject, k.close) or k.reject
  return { accept = k.accept, acceptSession = k.accept_session, reject = reject }
end

--- The help in the review's winbar: the server's question and its answers in its order (Deny
--- first), each after the key that gives it, then the keys that go hunk by hunk.
---@param params table the `kesi/reviewEdit` params: {question, actions: [{title, decision}]}
---@return string
function M.actions_help(params)
  local keys, k = decision_keys(), config.options.review.keys
  local answers = {}
  for _, action in ipairs(type(params.actions) == 'table' and params.actions or {}) do
    local key = keys[action.decision]
    if key and key ~= '' then
      table.insert(answers, ('%s %s'):format(key, tostring(action.title)))
    end
  end
  local hunks = (']c/[c · %s ✓ · %s ✗'):format(k.accept_hunk, k.reject_hunk)
  return ('%s  %s  ·  %s'):format(tostring(params.question or ''), table.concat(answers, ' · '), hunks)
end

M.hunk_ns = vim.api.nvim_create_namespace('kesi.review.hunks')

--- Show what would land (rejected hunks with their old lines) and mark each hunk's decision.
---@param view kesi.ReviewView
local function render(view)
  local buf = view.bufs[2]
  if not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  local lines = hunks_mod.compose(view.before_lines, view.after_lines, view.hunks)
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, true, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  vim.api.nvim_buf_clear_namespace(buf, M.hunk_ns, 0, -1)
  local k = config.options.review.keys
  for _, h in ipairs(view.hunks) do
    local label, group
    if h.decision == 'accepted' then
      label, group = '✓ kept', 'DiffAdd'
    elseif h.decision == 'rejected' then
      label, group = '✗ rejected', 'DiffDelete'
    else
      label, group = ('%s keep · %s reject'):format(k.accept_hunk, k.reject_hunk), 'Comment'
    end
    local row = math.max(0, math.min(h.row - 1, #lines - 1))
    pcall(vim.api.nvim_buf_set_extmark, buf, M.hunk_ns, row, 0, {
      virt_text = { { ' ' .. label, group } },
      virt_text_pos = 'eol',
    })
  end
  for _, win in ipairs(view.wins) do
    if vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_win_call(win, function()
        vim.cmd('diffupdate')
      end)
    end
  end
end

---@param view kesi.ReviewView
---@param decision string
---@param after string? the text accepted when only some hunks were
local function decide(view, decision, after)
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
  view.on_decision(decision, after)
end

--- Accept the edit as the right side shows it: the hunks not rejected. All rejected is a no.
---@param view kesi.ReviewView
---@param decision string "accept" | "acceptSession"
local function accept_shown(view, decision)
  local counts = hunks_mod.counts(view.hunks)
  if counts.rejected == 0 then
    decide(view, decision)
  elseif counts.accepted == 0 and counts.open == 0 then
    decide(view, M.decisions.reject)
  else
    local lines = hunks_mod.compose(view.before_lines, view.after_lines, view.hunks)
    decide(view, decision, hunks_mod.text(lines, view.after_text))
  end
end

--- Accept or reject the hunk under the cursor, then go to the next open one; when none is
--- left, answer.
---@param view kesi.ReviewView
---@param decision string "accepted" | "rejected"
local function decide_hunk(view, decision)
  local win = vim.api.nvim_get_current_win()
  local side = win == view.wins[1] and 'before' or 'after'
  local row = vim.api.nvim_win_get_cursor(win)[1]
  local index = hunks_mod.at(view.hunks, row, side)
  if not index then
    vim.notify('KeSi: the cursor is not on a change (]c goes to the next one)', vim.log.levels.WARN)
    return
  end
  view.hunks[index].decision = decision
  render(view)
  local following = hunks_mod.next_open(view.hunks, index)
  if not following then
    accept_shown(view, M.decisions.accept)
    return
  end
  local target = view.wins[2]
  if vim.api.nvim_win_is_valid(target) then
    vim.api.nvim_set_current_win(target)
    pcall(vim.api.nvim_win_set_cursor, target, { math.max(1, view.hunks[following].row), 0 })
  end
end

---@param view kesi.ReviewView
local function map_keys(view)
  local keys = config.options.review.keys
  local actions = {
    {
      keys.accept,
      function()
        accept_shown(view, M.decisions.accept)
      end,
      'KeSi: accept this edit (the hunks not rejected)',
    },
    {
      keys.accept_session,
      function()
        accept_shown(view, M.decisions.accept_session)
      end,
      'KeSi: accept edits to this file for the session',
    },
    {
      keys.reject,
      function()
        decide(view, M.decisions.reject)
      end,
      'KeSi: reject this edit',
    },
    {
      keys.close,
      function()
        decide(view, M.decisions.reject)
      end,
      'KeSi: close the review (reject)',
    },
    {
      keys.accept_hunk,
      function()
        decide_hunk(view, 'accepted')
      end,
      'KeSi: keep the change under the cursor',
    },
    {
      keys.reject_hunk,
      function()
        decide_hunk(view, 'rejected')
      end,
      'KeSi: reject the change under the cursor',
    },
  }
  for _, buf in ipairs(view.bufs) do
    for _, action in ipairs(actions) do
      if action[1] and action[1] ~= '' then
        vim.keymap.set('n', action[1], action[2], { buffer = buf, nowait = true, desc = action[3] })
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

--- Open the review of one edit. `on_decision` gets "accept", "acceptSession" or "reject", and
--- the accepted text when some hunks were rejected.
---@param params { runId: string?, uri: string?, path: string?, before: string?, after: string?, diff: string? }
---@param on_decision fun(decision: string, after: string?)
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
  vim.wo[right][0].winbar = ('%%#DiffAdd# %s %%*  %%=%%#Comment#%s%%*'):format(
    winbar_text(params.title or path),
    winbar_text(M.actions_help(params))
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
    before_text = before,
    after_text = after,
    before_lines = hunks_mod.lines(before),
    after_lines = hunks_mod.lines(after),
    hunks = hunks_mod.compute(before, after),
  }
  M.views[tab] = view
  render(view)
  pcall(vim.api.nvim_win_set_cursor, right, { first_change(before, after), 0 })
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
  M.open(params, function(decision, after)
    -- Scheduled, so the resume always comes after the yield below.
    vim.schedule(function()
      coroutine.resume(co, decision, after)
    end)
  end)
  local decision, after = coroutine.yield()
  return { decision = decision, after = after }
end

return M
