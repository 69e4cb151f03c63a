---@mod kesi.tasks Background tasks (issue 28): :KeSiTasks lists them, :KeSiTaskStop stops one.
--- Every line is the server's (`kesi.tasks`' `lines`, `kesi/tasks`' `line`): the plugin only
--- shows them.

local M = {}

local client_mod = require('kesi.client')

---@param bufnr integer
---@return table
local function folder_args(bufnr)
  local uri = client_mod.uri(bufnr)
  return uri and { uri = uri } or vim.empty_dict()
end

--- List the folder's background tasks (id, command, state, started, last line).
function M.list()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_mod.require(bufnr)
  if not client then
    return
  end
  client_mod.execute(client, 'kesi.tasks', folder_args(bufnr), bufnr, function(result)
    local lines = type(result) == 'table' and result.lines or {}
    vim.notify(table.concat(vim.tbl_map(tostring, lines), '\n'), vim.log.levels.INFO)
  end)
end

---@param client vim.lsp.Client
---@param bufnr integer
---@param id string
local function stop(client, bufnr, id)
  local args = { taskId = id, uri = client_mod.uri(bufnr) }
  client_mod.execute(client, 'kesi.stopTask', args, bufnr, function(result)
    if type(result) == 'table' and type(result.message) == 'string' then
      vim.notify(result.message, vim.log.levels.INFO)
    end
  end)
end

--- Stop background task `id`; without one, pick among the running tasks (vim.ui.select).
---@param id string?
function M.stop(id)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_mod.require(bufnr)
  if not client then
    return
  end
  if id and id ~= '' then
    stop(client, bufnr, id)
    return
  end
  client_mod.execute(client, 'kesi.tasks', folder_args(bufnr), bufnr, function(result)
    local running = vim.tbl_filter(function(task)
      return task.state == 'running'
    end, type(result) == 'table' and result.tasks or {})
    if #running == 0 then
      local lines = type(result) == 'table' and result.lines or {}
      vim.notify(table.concat(vim.tbl_map(tostring, lines), '\n'), vim.log.levels.INFO)
      return
    end
    vim.ui.select(running, {
      prompt = 'KeSi: stop which task?',
      format_item = function(task)
        return task.line
      end,
    }, function(task)
      if task then
        stop(client, bufnr, task.taskId)
      end
    end)
  end)
end

--- `kesi/tasks` {uri, line, tasks, lines}: a task started or ended; its line goes to the output.
---@param params table
function M.changed(_, params)
  if type(params) ~= 'table' or type(params.line) ~= 'string' then
    return
  end
  require('kesi.output').lines({ params.line }, { 'Comment' })
end

return M
