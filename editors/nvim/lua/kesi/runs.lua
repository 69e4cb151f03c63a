---@mod kesi.runs What KeSi is doing: runs by id, the active run of each server, costs.
--- Every change fires `User KeSiStatus`, so statuslines can refresh.

local M = {}

---@class kesi.Run
---@field id string
---@field client_id integer
---@field title string
---@field status string "running" | "done" | "cancelled" | "failed" | "limit"
---@field cost number USD spent by this run so far
---@field usage table? the run's usage as the server last reported it
---@field finished integer? when it ended: 1 for the first run to end in this Neovim, 2 next...
---@field turn string? the server's words for the run's round trip ("turn 2 of at most 20")
---@field nested_turn string? a sub-agent's, naming it ("search agent: turn 2 of at most 10")
---@field plan table? the model's plan, as last sent: `kesi/plan` {items, lines, title, current}
---@field verified table? the server's verdict on the run's changes: {status, by, detail}

---@type table<string, kesi.Run>
M.runs = {}
---@type table<integer, string> client id -> id of its running run
M.active = {}
--- How many runs have ended.
M.finished = 0
---@type table<integer, number> client id -> the session's cost in USD, as the server reported it
M.reported_session_cost = {}

local function changed()
  vim.api.nvim_exec_autocmds('User', { pattern = 'KeSiStatus', modeline = false })
  vim.cmd.redrawstatus({ bang = true })
end

---@param usage table?
---@return number?
function M.cost_of(usage)
  if type(usage) == 'table' and type(usage.costUsd) == 'number' then
    return usage.costUsd
  end
  return nil
end

---@param usd number
---@return string
function M.format_cost(usd)
  return ('$%.4f'):format(usd)
end

--- Record a run (idempotent: a stream notification may arrive before the command's answer).
---@param client_id integer
---@param id string
---@param title string?
---@return kesi.Run run, boolean created
function M.ensure(client_id, id, title)
  local run = M.runs[id]
  if run then
    return run, false
  end
  run = { id = id, client_id = client_id, title = title or 'KeSi', status = 'running', cost = 0 }
  M.runs[id] = run
  M.active[client_id] = id
  changed()
  return run, true
end

---@param id string?
---@return kesi.Run?
function M.get(id)
  return id and M.runs[id] or nil
end

---@param client_id integer
---@return kesi.Run?
function M.active_run(client_id)
  return M.get(M.active[client_id])
end

--- Usage reported while the run lives (`kesi/stream` kind `usage`).
---@param run kesi.Run
---@param run_usage table?
---@param session_usage table?
function M.usage(run, run_usage, session_usage)
  run.usage = run_usage or run.usage
  run.cost = M.cost_of(run_usage) or run.cost
  M.reported_session_cost[run.client_id] = M.cost_of(session_usage)
    or M.reported_session_cost[run.client_id]
  changed()
end

--- A `kesi/stream` turn event: the run's own round trip, or (with a `depth`) its sub-agent's,
--- each in the server's words.
---@param run kesi.Run
---@param event table
function M.turn(run, event)
  if type(event.turn) == 'number' then
    local nested = type(event.depth) == 'number' and event.depth > 0
    local label = event[nested and 'nestedLabel' or 'label']
    run[nested and 'nested_turn' or 'turn'] = type(label) == 'string' and label or nil
    changed()
  end
end

--- A call of the run ended: no sub-agent works for it any more.
---@param run kesi.Run
function M.turn_ended(run)
  if run.nested_turn then
    run.nested_turn = nil
    changed()
  end
end

---@param run kesi.Run
---@param plan table `kesi/plan` params
function M.plan(run, plan)
  run.plan = plan
  changed()
end

---@param run kesi.Run
---@param status string
---@param usage table?
---@param verified table?
function M.finish(run, status, usage, verified)
  run.status = status
  run.nested_turn = nil
  run.verified = verified
  M.finished = M.finished + 1
  run.finished = M.finished
  M.usage(run, usage, nil)
  if M.active[run.client_id] == run.id then
    M.active[run.client_id] = nil
  end
  changed()
end

--- The run of this client that ended last, if any.
---@param client_id integer
---@return kesi.Run?
function M.last_finished(client_id)
  local last = nil
  for _, run in pairs(M.runs) do
    if run.client_id == client_id and run.finished and (not last or run.finished > last.finished) then
      last = run
    end
  end
  return last
end

--- Forget the runs of a client that stopped.
---@param client_id integer
function M.forget_client(client_id)
  for id, run in pairs(M.runs) do
    if run.client_id == client_id then
      M.runs[id] = nil
    end
  end
  M.active[client_id] = nil
  M.reported_session_cost[client_id] = nil
  changed()
end

--- What this server's session has cost: the server's own total when it reported one, else the
--- sum of the runs seen here.
---@param client_id integer
---@return number
function M.session_cost(client_id)
  local sum = 0
  for _, run in pairs(M.runs) do
    if run.client_id == client_id then
      sum = sum + run.cost
    end
  end
  return math.max(M.reported_session_cost[client_id] or 0, sum)
end

return M
