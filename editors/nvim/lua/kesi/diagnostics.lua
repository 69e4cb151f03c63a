---@mod kesi.diagnostics `kesi/diagnostics`: what every language server reports (design §2.10).
--- After an edit lands, kesi-lsp asks what the editor's other language servers now say about the
--- changed files, and tells the model which errors and warnings are new. Neovim knows them all
--- (`vim.diagnostic.get`); this module answers with them, and with how many times each buffer's
--- diagnostics were updated (the `DiagnosticChanged` autocmd), so the server can tell when a
--- language server has looked at a file again.

local M = {}

---@type table<integer, integer> buffer -> how many times its diagnostics changed
M.changes = {}

vim.api.nvim_create_autocmd('DiagnosticChanged', {
  group = vim.api.nvim_create_augroup('kesi.diagnostics', { clear = true }),
  callback = function(args)
    M.changes[args.buf] = (M.changes[args.buf] or 0) + 1
  end,
})
vim.api.nvim_create_autocmd('BufWipeout', {
  group = vim.api.nvim_create_augroup('kesi.diagnostics.wipe', { clear = true }),
  callback = function(args)
    M.changes[args.buf] = nil
  end,
})

--- The loaded buffer holding `fname`, without creating one.
---@param fname string
---@return integer?
local function buffer_of(fname)
  local wanted = vim.fs.normalize(vim.fn.resolve(fname))
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(buf)
    if name ~= '' and vim.fs.normalize(vim.fn.resolve(name)) == wanted then
      return buf
    end
  end
  return nil
end

--- A `vim.Diagnostic` as an LSP Diagnostic (the language server's own when it came from one).
---@param buf integer
---@param d vim.Diagnostic
---@param encoding string
---@return table
local function to_lsp(buf, d, encoding)
  local lsp = d.user_data and d.user_data.lsp
  if lsp then
    return lsp
  end
  local function pos(row, col)
    local text = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or ''
    col = math.min(col or 0, #text)
    return { line = row, character = vim.str_utfindex(text, encoding, col, false) }
  end
  return {
    range = { start = pos(d.lnum, d.col), ['end'] = pos(d.end_lnum or d.lnum, d.end_col or d.col) },
    severity = d.severity,
    message = d.message,
    source = d.source,
    code = d.code,
  }
end

--- Answer `kesi/diagnostics {uris}` with `{items = {{uri, diagnostics, changes}}}`; the KeSi
--- server's own diagnostics are left out (they describe its changes, not problems in them).
---@param params table
---@param client_id integer?
---@return table
function M.request(params, client_id)
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  local encoding = client and client.offset_encoding or 'utf-16'
  local own = client_id and vim.lsp.diagnostic.get_namespace(client_id) or nil
  local items = {}
  for _, uri in ipairs(params and params.uris or {}) do
    local buf = buffer_of(vim.uri_to_fname(uri))
    local diagnostics, changes = {}, 0
    if buf then
      for _, d in ipairs(vim.diagnostic.get(buf)) do
        if d.namespace ~= own then
          table.insert(diagnostics, to_lsp(buf, d, encoding))
        end
      end
      -- Reports from before this module was loaded still mean a server looks at the file.
      changes = M.changes[buf] or (#diagnostics > 0 and 1 or 0)
    end
    table.insert(items, { uri = uri, diagnostics = diagnostics, changes = changes })
  end
  return { items = items }
end

return M
