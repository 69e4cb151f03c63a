---@mod kesi.changes KeSi's change sets in Neovim (design.md §2.9).
--- The server keeps every change a run made, hunk by hunk, and publishes the ones you have not
--- kept or undone yet as `KeSi` diagnostics. Here they get a sign on every line and the
--- server's code lenses ("KeSi: Keep" / "KeSi: Undo"), and the commands :KeSiChanges,
--- :KeSiKeep, :KeSiUndo and :KeSiUndoRun. An undo arrives as one edit, so |u| brings it back.

local client_mod = require('kesi.client')
local config = require('kesi.config')

local M = {}

M.ns = vim.api.nvim_create_namespace('kesi.changes')
M.sign_text = '▎'

--- The pending hunks of a buffer, from the server's `KeSi` diagnostics: {hunk_id, run_id,
--- first, last} with 0-based rows.
---@param bufnr integer
---@return { hunk_id: string, run_id: string, first: integer, last: integer }[]
function M.pending(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp
    local data = lsp and lsp.data
    if d.source == 'KeSi' and type(data) == 'table' and data.hunkId then
      table.insert(found, {
        hunk_id = data.hunkId,
        run_id = data.runId,
        first = d.lnum,
        last = d.end_lnum or d.lnum,
      })
    end
  end
  table.sort(found, function(a, b)
    return a.first < b.first
  end)
  return found
end

--- The pending hunk under the cursor (row 0-based), if any.
---@param bufnr integer
---@param row integer
function M.at(bufnr, row)
  for _, h in ipairs(M.pending(bufnr)) do
    if row >= h.first and row <= math.max(h.first, h.last) then
      return h
    end
  end
  return nil
end

--- Put a sign on every line of each pending hunk of `bufnr`, and refresh its lenses.
---@param bufnr integer
function M.mark(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  vim.api.nvim_buf_clear_namespace(bufnr, M.ns, 0, -1)
  if config.options.changes.signs ~= false then
    local count = vim.api.nvim_buf_line_count(bufnr)
    for _, h in ipairs(M.pending(bufnr)) do
      for row = h.first, math.min(math.max(h.first, h.last), count - 1) do
        pcall(vim.api.nvim_buf_set_extmark, bufnr, M.ns, row, 0, {
          sign_text = M.sign_text,
          sign_hl_group = 'KeSiPending',
          priority = 5,
        })
      end
    end
  end
  if config.options.changes.lenses ~= false then
    pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
  end
end

--- Say what a keep or undo did (the server's own words), then show the new state.
---@param result any
---@param bufnr integer?
local function report(result, bufnr)
  if type(result) == 'table' and type(result.message) == 'string' and result.message ~= '' then
    local failed = type(result.failed) == 'table' and #result.failed > 0
    vim.notify(result.message, failed and vim.log.levels.WARN or vim.log.levels.INFO)
  end
  if bufnr and vim.api.nvim_buf_is_valid(bufnr) then
    M.mark(bufnr)
  end
end

---@param command string
---@param args table
---@param bufnr integer?
---@param client vim.lsp.Client?
function M.execute(command, args, bufnr, client)
  bufnr = (bufnr and bufnr ~= 0) and bufnr or vim.api.nvim_get_current_buf()
  client = client or client_mod.require(bufnr)
  if not client then
    return
  end
  client_mod.execute(client, command, args, bufnr, function(result)
    report(result, bufnr)
  end)
end

--- The argument for the hunk under the cursor, else for the whole file (`whole`: always it).
---@param bufnr integer
---@param whole boolean
---@return table
local function here(bufnr, whole)
  local uri = client_mod.uri(bufnr)
  if not uri then
    return vim.empty_dict()
  end
  if not whole then
    local hunk = M.at(bufnr, vim.api.nvim_win_get_cursor(0)[1] - 1)
    if hunk then
      return { uri = uri, hunkId = hunk.hunk_id }
    end
  end
  return { uri = uri }
end

--- :KeSiKeep: the change under the cursor, else every change of the file; `all` (!): every
--- change of the folder.
---@param all boolean?
function M.keep(all)
  local bufnr = vim.api.nvim_get_current_buf()
  local args = here(bufnr, false)
  if all then
    args = { uri = args.uri, all = true }
  end
  M.execute('kesi.keep', args, bufnr)
end

--- :KeSiUndo: the change under the cursor, else every change of the file (`whole`: the file).
---@param whole boolean?
function M.undo(whole)
  local bufnr = vim.api.nvim_get_current_buf()
  M.execute('kesi.undo', here(bufnr, whole == true), bufnr)
end

--- :KeSiUndoRun [runId]: every change of a run (default the last one).
---@param run_id string?
function M.undo_run(run_id)
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = client_mod.uri(bufnr)
  local args = {}
  if uri then
    args.uri = uri
  end
  if run_id and run_id ~= '' then
    args.runId = run_id
  end
  M.execute('kesi.undoRun', next(args) and args or vim.empty_dict(), bufnr)
end

--- The quickfix items for `kesi.changes`: one per hunk not kept or undone yet.
---@param listing table
---@return table[]
function M.quickfix_items(listing)
  local items = {}
  for _, run in ipairs(listing.runs or {}) do
    for _, file in ipairs(run.files or {}) do
      for _, hunk in ipairs(file.hunks or {}) do
        if hunk.state == 'pending' then
          table.insert(items, {
            filename = vim.uri_to_fname(file.uri),
            lnum = hunk.range.start.line + 1,
            end_lnum = hunk.range['end'].line + 1,
            -- The server's rows: the hunk's code, and the run by what was asked.
            text = ('KeSi: %s · −%d +%d · %s'):format(
              hunk.label or hunk.id,
              hunk.removed or 0,
              hunk.added or 0,
              run.label or run.task or run.runId
            ),
          })
        end
      end
    end
  end
  return items
end

--- :KeSiChanges: the changes not reviewed yet, in the quickfix list.
function M.show()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_mod.require(bufnr)
  if not client then
    return
  end
  local uri = client_mod.uri(bufnr)
  local args = vim.empty_dict()
  if uri then
    local folder = client.workspace_folders and client.workspace_folders[1]
    args = { uri = folder and folder.uri or uri }
  end
  client_mod.execute(client, 'kesi.changes', args, bufnr, function(result)
    local items = M.quickfix_items(type(result) == 'table' and result or {})
    vim.fn.setqflist({}, ' ', { title = 'KeSi changes', items = items })
    if #items == 0 then
      vim.notify('KeSi: no change waits for your review', vim.log.levels.INFO)
      return
    end
    vim.cmd('copen')
  end)
end

--- `textDocument/publishDiagnostics` from kesi-lsp: Neovim's own handling, then the signs and
--- lenses of the changes.
---@param err any
---@param params table
---@param ctx table
function M.on_diagnostics(err, params, ctx)
  vim.lsp.diagnostic.on_publish_diagnostics(err, params, ctx)
  if type(params) ~= 'table' or type(params.uri) ~= 'string' then
    return
  end
  local bufnr = vim.uri_to_bufnr(params.uri)
  vim.schedule(function()
    M.mark(bufnr)
  end)
end

--- A lens or code action ran `kesi.keep` / `kesi.undo` / `kesi.undoRun`: send it, and say what
--- happened (Neovim shows nothing of a command's answer by itself).
---@param command lsp.Command
---@param ctx { client_id: integer, bufnr: integer }
function M.run_command(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local args = command.arguments and command.arguments[1] or vim.empty_dict()
  M.execute(command.command, args, ctx.bufnr, client)
end

return M
