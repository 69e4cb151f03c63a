---@mod kesi.handlers Per-client handlers for KeSi's own LSP methods (design.md §2.5, §2.7,
--- §2.10).
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

local INDENT = '    '

--- `kesi/stream` {runId, kind, ...}: model text as it streams, and every other event's lines
--- as the server rendered them (`lines`/`line`, the session's locale); usage and turns also
--- update the run's state. A sub-agent's text (its `depth`) is indented under the call.
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
    output.text(params.text or '', INDENT:rep(math.max(0, tonumber(params.depth) or 0)))
    return
  elseif kind == 'toolInput' then
    output.in_place(params.line) -- the call's input is still arriving (Day 17)
    return
  end
  output.story(params)
  if kind == 'toolEnd' and params.tool == 'run_command' then
    require('kesi.reload').unmodified() -- like VS Code, show what the command changed
  elseif kind == 'usage' then
    require('kesi.runs').usage(run, params.run or params.usage, params.session)
  elseif kind == 'turn' then
    require('kesi.runs').turn(run, params)
  elseif kind == 'toolEnd' and not params.depth then
    require('kesi.runs').turn_ended(run) -- the call a sub-agent worked for is over
  end
end

--- `kesi/runFinished` {runId, status, line, lines, bill, verified, ...}: the run's end, in the
--- server's words (the session's locale; `bill` is the seed's Day 18 line).
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
  local verified = type(params.verified) == 'table' and params.verified or nil
  runs.finish(run, status, params.usage, verified)
  if run.plan then -- the plan leaves the top; its final state stays in the run's story
    require('kesi.plan').clear()
    require('kesi.plan').record(run.plan)
  end
  require('kesi.output').finish(params)
  require('kesi').finished(run, params)
end

--- `kesi/plan` {runId, items, lines, title, current}: the whole plan as the server wrote it, at
--- the top of the output, updated in place.
---@param params table
---@param ctx lsp.HandlerContext
function M.plan(_, params, ctx)
  if type(params) ~= 'table' or type(params.runId) ~= 'string' or type(params.items) ~= 'table' then
    return
  end
  local run = run_for(ctx.client_id, params.runId)
  require('kesi.runs').plan(run, params)
  require('kesi.plan').show(params, run.title)
end

--- `kesi/diagnostics` {uris} -> {items}: what every language server reports for those files.
---@param params table
---@param ctx lsp.HandlerContext
function M.diagnostics(_, params, ctx)
  return require('kesi.diagnostics').request(params or {}, ctx and ctx.client_id)
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

--- `kesi/verdict` {runId, uri, verified, line}: a run's verdict changed after it ended (the user
--- undid what its check ran on): the server's line in the output, the verdict in the statusline.
---@param params table
function M.verdict(_, params)
  if type(params) ~= 'table' or type(params.line) ~= 'string' then
    return
  end
  local run = type(params.runId) == 'string' and require('kesi.runs').get(params.runId) or nil
  if run and type(params.verified) == 'table' then
    run.verified = params.verified
  end
  require('kesi.output').lines({ params.line }, { 'Comment' })
end

--- `textDocument/publishDiagnostics`: as always, plus the signs and lenses of KeSi's changes.
function M.publish_diagnostics(err, params, ctx)
  require('kesi.changes').on_diagnostics(err, params, ctx)
end

M.handlers = {
  ['textDocument/publishDiagnostics'] = M.publish_diagnostics,
  ['kesi/stream'] = M.stream,
  ['kesi/runFinished'] = M.run_finished,
  ['kesi/reviewEdit'] = M.review_edit,
  ['kesi/saveDocuments'] = M.save_documents,
  ['kesi/plan'] = M.plan,
  ['kesi/diagnostics'] = M.diagnostics,
  ['kesi/verdict'] = M.verdict,
  ['kesi/tasks'] = function(err, params, ctx)
    require('kesi.tasks').changed(err, params, ctx)
  end,
}

return M
