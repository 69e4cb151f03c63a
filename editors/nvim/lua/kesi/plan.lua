---@mod kesi.plan The run's plan at the top of `kesi://output`, updated in place (design §2.10).
--- KeSi lists what it will do, item by item (the seed's Day 01), and moves through the list as it
--- works. The latest list sits at the top of the output buffer while the run lives; when the run
--- ends it leaves the top and its final state is written into the run's story.

local M = {}

M.ns = vim.api.nvim_create_namespace('kesi.plan')

M.marks = { completed = '✓', in_progress = '▶', pending = '○' }
M.groups = { completed = 'KeSiPlanDone', in_progress = 'KeSiPlanActive', pending = 'KeSiPlanPending' }

--- The plan block now at the top: which buffer, how many lines.
local shown = { buf = nil, count = 0 } ---@type { buf: integer?, count: integer }

---@param items table[] [{content, status}]
---@return integer done
function M.done(items)
  local n = 0
  for _, item in ipairs(items) do
    if item.status == 'completed' then
      n = n + 1
    end
  end
  return n
end

--- The item in progress, as `step 2/3: Fix the sign` (nil when none is).
---@param items table[]?
---@return string?
function M.step(items)
  for i, item in ipairs(items or {}) do
    if item.status == 'in_progress' then
      return ('step %d/%d: %s'):format(i, #items, tostring(item.content))
    end
  end
  return nil
end

--- The plan as lines: a title, one line per item; and the highlight group of each line.
---@param items table[]
---@param title string?
---@return string[] lines, string[] groups
function M.lines(items, title)
  local head = ('Plan (%d/%d done)'):format(M.done(items), #items)
  if title and title ~= '' then
    head = head .. ' · ' .. title
  end
  local lines, groups = { head }, { 'KeSiHeader' }
  for _, item in ipairs(items) do
    local status = item.status
    local content = tostring(item.content or ''):gsub('\n', ' ')
    table.insert(lines, ('  %s %s'):format(M.marks[status] or '·', content))
    table.insert(groups, M.groups[status] or 'KeSiPlanPending')
  end
  return lines, groups
end

---@param buf integer
---@param first integer 0-based line of the block
---@param groups string[]
---@param lines string[]
local function highlight(buf, first, lines, groups)
  for i, line in ipairs(lines) do
    if groups[i] then
      vim.api.nvim_buf_set_extmark(buf, M.ns, first + i - 1, 0, { end_col = #line, hl_group = groups[i] })
    end
  end
end

--- Show `items` at the top of the output buffer, in place of the plan shown before.
---@param items table[]
---@param title string?
function M.show(items, title)
  local output = require('kesi.output')
  local lines, groups = M.lines(items, title)
  table.insert(lines, '')
  output.replace_top(shown.buf == output.buf() and shown.count or 0, lines, function(buf)
    vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, #lines)
    highlight(buf, 0, lines, groups)
  end)
  shown = { buf = output.buf(), count = #lines }
end

--- Take the plan off the top (a new run starts, or the output was cleared).
function M.clear()
  local output = require('kesi.output')
  if shown.count > 0 and shown.buf == output.buf() then
    output.replace_top(shown.count, {}, function(buf)
      vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
    end)
  end
  shown = { buf = nil, count = 0 }
end

--- The output was emptied: nothing is at the top any more.
function M.forget()
  shown = { buf = nil, count = 0 }
end

--- Write the plan's final state into the run's story (it stays when the top is cleared).
---@param items table[]
function M.record(items)
  local lines, groups = M.lines(items, nil)
  require('kesi.output').lines(lines, groups)
end

return M
