---@mod kesi.commands The :KeSi* user commands.

local M = {}

---@param name string
---@param fn fun(opts: table)
---@param opts table
local function command(name, fn, opts)
  vim.api.nvim_create_user_command(name, fn, opts)
end

--- Define the commands (again: idempotent).
function M.create()
  command('KeSiFix', function(o)
    require('kesi').fix({ line1 = o.line1, line2 = o.line2, instruction = o.args })
  end, {
    range = true,
    nargs = '*',
    desc = 'KeSi: fix this line (or the range), with its diagnostics; args: an instruction',
  })
  command('KeSiAsk', function(o)
    require('kesi').ask(o.args, o.range > 0 and { line1 = o.line1, line2 = o.line2 } or nil)
  end, { range = true, nargs = '+', desc = 'KeSi: ask the agent to do something' })
  command('KeSiCancel', function()
    require('kesi').cancel()
  end, { desc = 'KeSi: stop the running run' })
  command('KeSiReset', function()
    require('kesi').reset()
  end, { desc = 'KeSi: clear the conversation and read records' })
  command('KeSiCompact', function()
    require('kesi').compact()
  end, { desc = 'KeSi: summarise the older part of the conversation now' })
  command('KeSiCost', function()
    require('kesi').cost()
  end, { desc = "KeSi: show this session's token usage and cost" })
  command('KeSiPermissions', function()
    require('kesi').permissions()
  end, { desc = 'KeSi: show the permissions granted in this session' })
  command('KeSiMcp', function()
    require('kesi').mcp()
  end, { desc = "KeSi: show this folder's MCP servers, their state and tools" })
  command('KeSiMcpLogin', function(o)
    require('kesi').mcp_login(o.args)
  end, { nargs = 1, desc = 'KeSi: sign in to a remote MCP server with OAuth (its name)' })
  command('KeSiMcpLogout', function(o)
    require('kesi').mcp_logout(o.args)
  end, { nargs = 1, desc = "KeSi: sign out of a remote MCP server (deletes its tokens)" })
  command('KeSiAudit', function()
    require('kesi').audit()
  end, { desc = "KeSi: show this folder's audit log (commands, edits, MCP calls, network)" })
  command('KeSiRevoke', function()
    require('kesi').revoke()
  end, { desc = 'KeSi: revoke every permission of this session' })
  command('KeSiTasks', function()
    require('kesi.tasks').list()
  end, { desc = "KeSi: list this folder's background tasks" })
  command('KeSiTaskStop', function(o)
    require('kesi.tasks').stop(o.args)
  end, { nargs = '?', desc = 'KeSi: stop background task [id] (else pick a running one)' })
  command('KeSiOutput', function(o)
    local output = require('kesi.output')
    if o.args == 'clear' then
      output.clear()
    else
      output.toggle()
    end
  end, {
    nargs = '?',
    complete = function()
      return { 'clear' }
    end,
    desc = 'KeSi: toggle the output split (clear: empty it)',
  })
  command('KeSiChanges', function()
    require('kesi.changes').show()
  end, { desc = "KeSi: the changes you have not kept or undone yet, in the quickfix list" })
  command('KeSiKeep', function(o)
    require('kesi.changes').keep(o.bang)
  end, {
    bang = true,
    desc = 'KeSi: keep the change under the cursor (else the file; !: every change)',
  })
  command('KeSiUndo', function(o)
    require('kesi.changes').undo(o.bang)
  end, {
    bang = true,
    desc = 'KeSi: undo the change under the cursor (else the file; !: the whole file)',
  })
  command('KeSiUndoRun', function(o)
    require('kesi.changes').undo_run(o.args)
  end, { nargs = '?', desc = 'KeSi: undo every change of the last run (or of run [id])' })
  command('KeSiAccept', function(o)
    local review = require('kesi.review')
    local decision = o.bang and review.decisions.accept_session or review.decisions.accept
    if not review.answer(decision) then
      vim.notify('KeSi: no edit is waiting for review', vim.log.levels.WARN)
    end
  end, { bang = true, desc = 'KeSi: accept the edit under review (!: for this session)' })
  command('KeSiReject', function()
    if not require('kesi.review').answer(require('kesi.review').decisions.reject) then
      vim.notify('KeSi: no edit is waiting for review', vim.log.levels.WARN)
    end
  end, { desc = 'KeSi: reject the edit under review' })
end

return M
