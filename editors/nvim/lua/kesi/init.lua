---@mod kesi KeSi, a small and honest coding agent, inside Neovim (see |kesi.txt|).
--- The agent runs in the `kesi-lsp` language server; this module starts runs, shows what they
--- do, and answers the server's review and save requests.

local client_mod = require('kesi.client')
local config = require('kesi.config')
local runs = require('kesi.runs')

local M = {}

--- Configure the plugin and (unless `enable = false`) enable the `kesi` LSP config.
--- On a Neovim too old for the plugin it does nothing but say so.
---@param opts kesi.Options?
function M.setup(opts)
  local version = require('kesi.version')
  if not version.supported() then
    version.warn()
    return
  end
  local options = config.set(opts)
  if options.server then
    vim.lsp.config('kesi', {
      init_options = options.server,
      settings = { kesi = options.server },
    })
  end
  require('kesi.commands').create()
  if options.enable then
    vim.lsp.enable('kesi')
  end
end

--- Show the start of a run in the output buffer (and open it, unless configured not to).
---@param run kesi.Run
function M.announce(run)
  local output = require('kesi.output')
  if config.options.output.open then
    output.open(false)
  end
  require('kesi.plan').clear() -- the last run's plan is in its story; this run has its own
  output.header(run.title)
end

--- Called when a run ends: a one-line summary when the output is not in view.
---@param run kesi.Run
---@param finished table the `kesi/runFinished` params
function M.finished(run, finished)
  if not config.options.notify_done or require('kesi.output').is_visible() then
    return
  end
  local level = run.status == 'done' and vim.log.levels.INFO or vim.log.levels.WARN
  local msg = 'KeSi: ' .. tostring(finished.line or finished.status or '')
  local text = finished.text
  if run.status ~= 'done' and type(text) == 'string' and text ~= '' then
    msg = msg .. '\n' .. text
  end
  vim.notify(msg, level)
end

--- Start a run: send the command, record the run id it answers with, open the output.
---@param client vim.lsp.Client
---@param command string "kesi.fixThis" | "kesi.ask"
---@param args table
---@param title string
---@param bufnr integer?
function M.start(client, command, args, title, bufnr)
  client_mod.execute(client, command, args, bufnr, function(result)
    if type(result) ~= 'table' or type(result.runId) ~= 'string' then
      vim.notify('KeSi: the server did not start a run', vim.log.levels.ERROR)
      return
    end
    local run, created = runs.ensure(client.id, result.runId, title)
    if created then
      M.announce(run)
    else
      run.title = title -- its stream came first and announced it untitled
    end
  end)
end

--- The LSP range of lines `line1`..`line2` (1-based, inclusive), whole lines.
---@param bufnr integer
---@param line1 integer
---@param line2 integer
---@param encoding string
---@return lsp.Range
function M.line_range(bufnr, line1, line2, encoding)
  local last = vim.api.nvim_buf_get_lines(bufnr, line2 - 1, line2, false)[1] or ''
  return {
    start = { line = line1 - 1, character = 0 },
    ['end'] = { line = line2 - 1, character = vim.str_utfindex(last, encoding, #last, false) },
  }
end

--- The diagnostics of lines `line1`..`line2` as LSP diagnostics (those from any source).
---@param bufnr integer
---@param line1 integer
---@param line2 integer
---@param encoding string
---@return lsp.Diagnostic[]
function M.diagnostics(bufnr, line1, line2, encoding)
  local result = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local last = d.end_lnum or d.lnum
    if d.lnum <= line2 - 1 and last >= line1 - 1 then
      local lsp_diag = d.user_data and d.user_data.lsp
      if not lsp_diag then
        local function pos(row, col)
          local text = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
          col = math.min(col or 0, #text)
          return { line = row, character = vim.str_utfindex(text, encoding, col, false) }
        end
        lsp_diag = {
          range = { start = pos(d.lnum, d.col), ['end'] = pos(last, d.end_col or d.col) },
          severity = d.severity,
          message = d.message,
          source = d.source,
          code = d.code,
        }
      end
      table.insert(result, lsp_diag)
    end
  end
  return result
end

---@class kesi.FixOptions
---@field bufnr integer?
---@field line1 integer? first line (1-based), default the cursor line
---@field line2 integer? last line, default line1
---@field instruction string? what to do, in the user's words

--- "KeSi: fix this" on a range of lines, with their diagnostics.
---@param opts kesi.FixOptions?
function M.fix(opts)
  opts = opts or {}
  local bufnr = (opts.bufnr and opts.bufnr ~= 0) and opts.bufnr or vim.api.nvim_get_current_buf()
  local client = client_mod.require(bufnr)
  if not client then
    return
  end
  local uri = client_mod.uri(bufnr)
  if not uri then
    vim.notify('KeSi: fix this works on a file buffer', vim.log.levels.ERROR)
    return
  end
  local line1 = opts.line1 or vim.api.nvim_win_get_cursor(0)[1]
  local line2 = opts.line2 or line1
  local encoding = client.offset_encoding
  local args = {
    uri = uri,
    range = M.line_range(bufnr, line1, line2, encoding),
    diagnostics = M.diagnostics(bufnr, line1, line2, encoding),
  }
  if opts.instruction and opts.instruction ~= '' then
    args.instruction = opts.instruction
  end
  local where = client_mod.relative(client, vim.api.nvim_buf_get_name(bufnr))
  local lines = line1 == line2 and tostring(line1) or ('%d-%d'):format(line1, line2)
  M.start(client, 'kesi.fixThis', args, ('fix this · %s:%s'):format(where, lines), bufnr)
end

--- The client-side `kesi.fixThis` command, so a code action starts a run like :KeSiFix does.
---@param command lsp.Command
---@param ctx { client_id: integer, bufnr: integer }
function M.fix_command(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local args = command.arguments and command.arguments[1]
  if not client or type(args) ~= 'table' then
    return
  end
  local title = 'fix this'
  if type(args.uri) == 'string' and type(args.range) == 'table' then
    local line1, line2 = args.range.start.line + 1, args.range['end'].line + 1
    title = ('fix this · %s:%s'):format(
      client_mod.relative(client, vim.uri_to_fname(args.uri)),
      line1 == line2 and tostring(line1) or ('%d-%d'):format(line1, line2)
    )
    -- Neovim puts only this server's own diagnostics in a code action's context; a linter's
    -- or a test runner's on the same lines matter as much, as they do for :KeSiFix.
    local bufnr = vim.uri_to_bufnr(args.uri)
    if
      (args.diagnostics == nil or #args.diagnostics == 0) and vim.api.nvim_buf_is_loaded(bufnr)
    then
      args = vim.deepcopy(args)
      args.diagnostics = M.diagnostics(bufnr, line1, line2, client.offset_encoding)
    end
  end
  M.start(client, command.command, args, title, ctx.bufnr)
end

---@class kesi.AskOptions
---@field bufnr integer?
---@field line1 integer?
---@field line2 integer? with line1: the lines the question is about

--- Ask KeSi anything about the project (optionally about some lines of the buffer).
---@param prompt string
---@param opts kesi.AskOptions?
function M.ask(prompt, opts)
  opts = opts or {}
  if not prompt or vim.trim(prompt) == '' then
    vim.notify('KeSi: say what to do, e.g. :KeSiAsk why does test_add fail?', vim.log.levels.ERROR)
    return
  end
  local bufnr = (opts.bufnr and opts.bufnr ~= 0) and opts.bufnr or vim.api.nvim_get_current_buf()
  local client = client_mod.require(bufnr)
  if not client then
    return
  end
  local args = { prompt = prompt, uri = client_mod.uri(bufnr) }
  if args.uri and opts.line1 then
    args.range = M.line_range(bufnr, opts.line1, opts.line2 or opts.line1, client.offset_encoding)
  end
  local short = vim.trim((prompt:gsub('%s+', ' ')))
  if vim.fn.strchars(short) > 60 then
    short = vim.fn.strcharpart(short, 0, 58) .. '…'
  end
  M.start(client, 'kesi.ask', args, ('ask · %s'):format(short), bufnr)
end

--- Stop the running run of this buffer's server (the seed's Ctrl-C).
function M.cancel()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_mod.require(bufnr)
  if not client then
    return
  end
  local run = runs.active_run(client.id)
  local args = run and { runId = run.id } or vim.empty_dict()
  client_mod.execute(client, 'kesi.cancel', args, bufnr, function(result)
    if type(result) == 'table' and result.cancelled then
      vim.notify('KeSi: cancelling the run', vim.log.levels.INFO)
    else
      vim.notify('KeSi: nothing is running', vim.log.levels.INFO)
    end
  end)
end

--- Run `command` for this buffer's folder (`uri`), with `extra` arguments when it takes any.
---@param command string
---@param on_result fun(result: any, client: vim.lsp.Client)
---@param extra table?
local function session_command(command, on_result, extra)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_mod.require(bufnr)
  if not client then
    return
  end
  local args = vim.tbl_extend('force', extra or {}, { uri = client_mod.uri(bufnr) })
  if vim.tbl_isempty(args) then
    args = vim.empty_dict()
  end
  client_mod.execute(client, command, args, bufnr, function(result)
    on_result(result, client)
  end)
end

--- Show the server's answer to a session command: its `lines` or its `message`, the seed's
--- words in the session's locale (the server says them; the plugin never words its own).
---@param result any
---@param fallback string what an older server that sends neither did
local function say(result, fallback)
  local lines = type(result) == 'table' and result.lines
  if type(lines) == 'table' and #lines > 0 then
    vim.notify(table.concat(vim.tbl_map(tostring, lines), '\n'), vim.log.levels.INFO)
  elseif type(result) == 'table' and type(result.message) == 'string' then
    vim.notify(result.message, vim.log.levels.INFO)
  else
    vim.notify('KeSi: ' .. fallback, vim.log.levels.INFO)
  end
end

--- Clear the session's history and read records (the seed's /reset):
--- 「日記與檔案版本紀錄已清空，我們重新開始」.
function M.reset()
  session_command('kesi.reset', function(result)
    say(result, 'conversation and read records cleared')
  end)
end

--- Summarise the older part of the conversation now (kesi.compact), as a short run of its own.
function M.compact()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_mod.require(bufnr)
  if not client then
    return
  end
  local uri = client_mod.uri(bufnr)
  local args = uri and { uri = uri } or vim.empty_dict()
  M.start(client, 'kesi.compact', args, 'compact the conversation', bufnr)
end

--- Show what this session has cost (the seed's /cost, Day 18's lines).
function M.cost()
  session_command('kesi.cost', function(result, client)
    if type(result) ~= 'table' then
      return
    end
    if type(result.costUsd) == 'number' then
      runs.reported_session_cost[client.id] = result.costUsd
    end
    say(result, runs.format_cost(result.costUsd or 0))
  end)
end

--- Show this session's grants (the seed's /permissions: 已放行的指令：… / 已放行的檔案：…).
function M.permissions()
  session_command('kesi.permissions', function(result)
    say(result, 'permissions unknown (update kesi-lsp)')
  end)
end

--- Show this folder's MCP servers: where each came from, its state (with the reason), its tools.
function M.mcp()
  session_command('kesi.mcp', function(result)
    say(result, 'MCP servers unknown (update kesi-lsp)')
  end)
end

--- Sign in to (`kesi.mcpLogin`) or out of (`kesi.mcpLogout`) a remote MCP server of this
--- buffer's folder. The server words the answer: on sign-in, the address to open (it asks
--- Neovim to open it in the browser too, `window/showDocument`), and later whether it worked.
---@param command string
---@param server string
local function mcp_account(command, server)
  session_command(command, function(result)
    say(result, 'MCP sign-in unknown (update kesi-lsp)')
  end, { server = server })
end

--- Sign in to the MCP server `server` with OAuth (`:KeSiMcpLogin {server}`).
---@param server string
function M.mcp_login(server)
  mcp_account('kesi.mcpLogin', server)
end

--- Delete the tokens of the MCP server `server` (`:KeSiMcpLogout {server}`).
---@param server string
function M.mcp_logout(server)
  mcp_account('kesi.mcpLogout', server)
end

--- Show this folder's audit log: the newest records (what KeSi ran, edited, called and let
--- through, and who decided), as the server words them.
function M.audit()
  session_command('kesi.audit', function(result)
    say(result, 'audit log unknown (update kesi-lsp)')
  end)
end

--- Withdraw every grant of this session (the seed's /revoke).
function M.revoke()
  session_command('kesi.revoke', function(result)
    say(result, 'all permissions of this session revoked')
  end)
end

--- For statuslines: "KeSi ● step 2 of 3: Fix the sign · $0.0012" while a run lives (the plan's
--- step in progress; before there is one, the server's words for the model's round trip,
--- "turn 2 of at most 20"; while a search works, its turn in the server's words beside it,
--- "search agent: turn 2 of at most 10"), "KeSi ✓ verified · $0.0345" after (the server's
--- verdict on the last run's changes, when it gave one), "" where no KeSi server serves the buffer.
---@param bufnr integer?
---@return string
function M.status(bufnr)
  local client = client_mod.for_buffer(bufnr)
  if not client then
    return ''
  end
  local run = runs.active_run(client.id)
  if run then
    local parts = {}
    local step = run.plan and run.plan.current
    if type(step) ~= 'string' then
      step = run.turn
    end
    if type(step) == 'string' then
      if vim.fn.strchars(step) > 48 then
        step = vim.fn.strcharpart(step, 0, 47) .. '…'
      end
      table.insert(parts, step)
    end
    if type(run.nested_turn) == 'string' then
      table.insert(parts, run.nested_turn) -- a search's own turn, beside the run's
    end
    table.insert(parts, runs.format_cost(run.cost))
    return 'KeSi ● ' .. table.concat(parts, ' · ')
  end
  local cost = runs.format_cost(runs.session_cost(client.id))
  local last = runs.last_finished(client.id)
  local verdict = last and last.verified and last.verified.text
  if type(verdict) == 'string' then
    local mark = ({ verified = '✓', unverified = '?' })[last.verified.status] or '✗'
    return ('KeSi %s %s · %s'):format(mark, verdict, cost)
  end
  return ('KeSi %s'):format(cost)
end

return M
