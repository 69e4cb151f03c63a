---@mod kesi.handlers Per-client handlers for KeSi's own LSP methods (design.md §2.5, §2.7).
--- `lsp/kesi.lua` installs `M.handlers`; each one loads what it needs only when it is used.

local M = {}

---@param client_id integer
---@param run_id string
---@return kesi.Run
local function run_for(client_id, run_id)
  local runs = require('kesi.runs')
  local run, created = runs.ensure(client_id, run_id, nil)
  if created then
    -- The notification came before the command's answer (or the run was started elsewhere).
    require('kesi').announce(run)
  end
  return run
end

--- `kesi/stream` {runId, kind, ...}: model text, tool lines, notices and usage, as they happen.
---@param params table
---@param ctx lsp.HandlerContext
function M.stream(_, params, ctx)
  if type(params) ~= 'table' or type(params.runId) ~= 'string' then
    return
  end
  local output = require('kesi.output')
  local run = run_for(ctx.client_id, params.runId)
  local kind = params.kind
  if kind == 'text' then
    output.text(params.text or '')
  elseif kind == 'toolStart' then
    output.tool_start(params.tool or '?', params.input)
  elseif kind == 'toolEnd' then
    output.tool_end(params.tool or '?', params.isError == true, params.summary)
    if params.tool == 'run_command' then
      require('kesi.reload').unmodified() -- like VS Code, show what the command changed
    end
  elseif kind == 'notice' then
    output.notice(tostring(params.text or params.message or ''))
  elseif kind == 'usage' then
    require('kesi.runs').usage(run, params.run or params.usage, params.session)
  elseif kind == 'turn' then
    require('kesi.runs').turn(run, params.turn, params.maxTurns)
  elseif kind == 'edit' then
    output.edit_applied(('%s %s'):format(params.tool or 'edit', params.path or ''))
  end
end

--- `kesi/runFinished` {runId, status, text, usage}: the footer with the run's cost.
---@param params table
---@param ctx lsp.HandlerContext
function M.run_finished(_, params, ctx)
  if type(params) ~= 'table' or type(params.runId) ~= 'string' then
    return
  end
  local runs = require('kesi.runs')
  local run = run_for(ctx.client_id, params.runId)
  local status = params.status or 'done'
  require('kesi.review').close_run(run.id)
  runs.finish(run, status, params.usage)
  local output = require('kesi.output')
  if status ~= 'done' and type(params.text) == 'string' and params.text ~= '' then
    -- Why it stopped (a done run's text is the model's, already streamed).
    output.notice(params.text, true)
  end
  output.finish(status, params.usage, run.cost)
  require('kesi').finished(run, params.text)
end

--- `kesi/reviewEdit` {runId, uri, path, before, after, diff} -> {decision}. Waits for the user.
---@param params table
function M.review_edit(_, params)
  return require('kesi.review').request(params or {})
end

--- `kesi/saveDocuments` {uris}: write those buffers.
---@param params table
function M.save_documents(_, params)
  return require('kesi.save').request(params or {})
end

--- `textDocument/publishDiagnostics`: as always, plus the signs and lenses of KeSi's changes.
function M.diagnostics(err, params, ctx)
  require('kesi.changes').on_diagnostics(err, params, ctx)
end

M.handlers = {
  ['textDocument/publishDiagnostics'] = M.diagnostics,
  ['kesi/stream'] = M.stream,
  ['kesi/runFinished'] = M.run_finished,
  ['kesi/reviewEdit'] = M.review_edit,
  ['kesi/saveDocuments'] = M.save_documents,
}

return M
