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
  output.header(run.title)
end

--- Called when a run ends: a one-line summary when the output is not in view.
---@param run kesi.Run
---@param text string?
function M.finished(run, text)
  if not config.options.notify_done or require('kesi.output').is_visible() then
    return
  end
  local level = run.status == 'done' and vim.log.levels.INFO or vim.log.levels.WARN
  local msg = ('KeSi: %s · %s'):format(run.status, runs.format_cost(run.cost))
  if run.status ~= 'done' and text and text ~= '' then
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

---@param command string
---@param on_result fun(result: any, client: vim.lsp.Client)
local function session_command(command, on_result)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_mod.require(bufnr)
  if not client then
    return
  end
  local uri = client_mod.uri(bufnr)
  local args = uri and { uri = uri } or vim.empty_dict()
  client_mod.execute(client, command, args, bufnr, function(result)
    on_result(result, client)
  end)
end

--- Clear the session's history and read records (the seed's /reset).
function M.reset()
  session_command('kesi.reset', function()
    vim.notify('KeSi: conversation and read records cleared', vim.log.levels.INFO)
  end)
end

--- Format `kesi.cost`'s answer.
---@param c table
---@return string
function M.format_usage(c)
  return ('KeSi session: %s · %d requests · %d input, %d output, %d cache read, %d cache write tokens'):format(
    runs.format_cost(c.costUsd or 0),
    c.requests or 0,
    c.inputTokens or 0,
    c.outputTokens or 0,
    c.cacheReadTokens or 0,
    c.cacheWriteTokens or 0
  )
end

--- Show what this session has cost (the seed's /cost).
function M.cost()
  session_command('kesi.cost', function(result, client)
    if type(result) ~= 'table' then
      return
    end
    if type(result.costUsd) == 'number' then
      runs.reported_session_cost[client.id] = result.costUsd
    end
    vim.notify(M.format_usage(result), vim.log.levels.INFO)
  end)
end

--- Show this session's grants (the seed's /permissions).
function M.permissions()
  session_command('kesi.permissions', function(result)
    result = type(result) == 'table' and result or {}
    local commands, files = result.commands or {}, result.files or {}
    local accepted = result.approvals == 'acceptEdits'
    local rules = type(result.rules) == 'table' and #result.rules > 0
    local server_lines = type(result.lines) == 'table' and result.lines or {}
    if #commands == 0 and #files == 0 and not accepted and not rules then
      vim.notify('KeSi: no permissions granted in this session', vim.log.levels.INFO)
      return
    end
    local lines = { 'KeSi permissions for this session:' }
    if accepted then
      table.insert(lines, '  edits: all allowed without asking (approvals = acceptEdits)')
    end
    if #commands > 0 then
      table.insert(lines, '  commands:')
      for _, c in ipairs(commands) do
        table.insert(lines, '    ' .. tostring(c))
      end
    end
    if #files > 0 then
      table.insert(lines, '  files:')
      for _, f in ipairs(files) do
        table.insert(lines, '    ' .. tostring(f))
      end
    end
    if rules and #server_lines > 0 then
      -- the server's own line: the rules in force and where each came from
      table.insert(lines, '  ' .. tostring(server_lines[#server_lines]))
    end
    vim.notify(table.concat(lines, '\n'), vim.log.levels.INFO)
  end)
end

--- Withdraw every grant of this session (the seed's /revoke).
function M.revoke()
  session_command('kesi.revoke', function()
    vim.notify('KeSi: all permissions of this session revoked', vim.log.levels.INFO)
  end)
end

--- For statuslines: "KeSi ● running · $0.0012" while a run lives, "KeSi $0.0345" after, ""
--- where no KeSi server serves the buffer.
---@param bufnr integer?
---@return string
function M.status(bufnr)
  local client = client_mod.for_buffer(bufnr)
  if not client then
    return ''
  end
  local run = runs.active_run(client.id)
  if run then
    local doing = run.turn and ('turn ' .. run.turn) or 'running'
    return ('KeSi ● %s · %s'):format(doing, runs.format_cost(run.cost))
  end
  local cost = runs.session_cost(client.id)
  return ('KeSi %s'):format(runs.format_cost(cost))
end

return M
