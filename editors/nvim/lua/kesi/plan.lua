---@mod kesi.plan The run's plan at the top of `kesi://output`, updated in place (design §2.10).
--- KeSi lists what it will do, item by item (the seed's Day 01), and moves through the list as it
--- works; the server words the list (`title`, `lines`, `current`), this module places it. The
--- latest list sits at the top of the output buffer while the run lives; when the run ends it
--- leaves the top and its final state is written into the run's story.

local M = {}

M.ns = vim.api.nvim_create_namespace('kesi.plan')

M.groups = { completed = 'KeSiPlanDone', in_progress = 'KeSiPlanActive', pending = 'KeSiPlanPending' }

--- The plan block now at the top: which buffer, how many lines.
local shown = { buf = nil, count = 0 } ---@type { buf: integer?, count: integer }

--- The plan as lines: the server's head (with the run's `title`), then its line for each item;
--- and the highlight group of each line (by the item's status).
---@param plan table `kesi/plan` params: {items, lines, title}
---@param title string?
---@return string[] lines, string[] groups
function M.lines(plan, title)
  local head = tostring(plan.title or '')
  if title and title ~= '' then
    head = head .. ' · ' .. title
  end
  local lines, groups = { head }, { 'KeSiHeader' }
  for i, item in ipairs(plan.items or {}) do
    local line = tostring((plan.lines or {})[i] or item.content or ''):gsub('\n', ' ')
    table.insert(lines, '  ' .. line)
    table.insert(groups, M.groups[item.status] or 'KeSiPlanPending')
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

--- Show the plan at the top of the output buffer, in place of the plan shown before.
---@param plan table `kesi/plan` params
---@param title string?
function M.show(plan, title)
  local output = require('kesi.output')
  local lines, groups = M.lines(plan, title)
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
---@param plan table `kesi/plan` params
function M.record(plan)
  local lines, groups = M.lines(plan, nil)
  require('kesi.output').lines(lines, groups)
end

return M
