---@mod kesi.save `kesi/saveDocuments`: write the buffers an accepted edit changed.
--- The server verifies afterwards that disk, buffer and its intended text agree, so the write
--- skips `BufWritePre` (formatters and whitespace trimmers would change the bytes) but still
--- fires `BufWritePost` (linters, git signs, other servers' didSave).

local M = {}

--- Write one buffer's text to its file. Returns an error message, or nil when it was written.
---@param bufnr integer
---@return string?
local function write(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return 'buffer is not loaded'
  end
  local fname = vim.api.nvim_buf_get_name(bufnr)
  local dir = vim.fs.dirname(fname)
  if dir and vim.fn.isdirectory(dir) == 0 then
    vim.fn.mkdir(dir, 'p')
  end
  -- `write!`: the timestamp question ("file has changed since reading it") would block a
  -- handler that has no user in front of it; the server already checked what it writes.
  local ok, err = pcall(vim.api.nvim_buf_call, bufnr, function()
    vim.cmd('silent keepalt noautocmd write!')
  end)
  if not ok then
    return tostring(err)
  end
  vim.api.nvim_exec_autocmds('BufWritePost', { buffer = bufnr, modeline = false })
  return nil
end

--- The buffer holding a file (no pattern matching, unlike bufnr()).
---@param fname string
---@return integer?
local function find(fname)
  fname = vim.fs.normalize(fname)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.fs.normalize(vim.api.nvim_buf_get_name(bufnr)) == fname then
      return bufnr
    end
  end
  return nil
end

--- Handle the request. Answers `{saved = uris, failed = {{uri, message}}}`.
---@param params { uris: string[]? }
---@return table
function M.request(params)
  local saved, failed = {}, {}
  for _, uri in ipairs(params and params.uris or {}) do
    local bufnr = find(vim.uri_to_fname(uri))
    local err
    if not bufnr then
      err = 'no buffer holds this file'
    else
      err = write(bufnr)
    end
    if err then
      table.insert(failed, { uri = uri, message = err })
    else
      table.insert(saved, uri)
    end
  end
  if #failed > 0 then
    local names = vim.tbl_map(function(f)
      return ('%s (%s)'):format(vim.fn.fnamemodify(vim.uri_to_fname(f.uri), ':~:.'), f.message)
    end, failed)
    vim.notify('KeSi: could not save ' .. table.concat(names, ', '), vim.log.levels.ERROR)
  end
  return { saved = saved, failed = failed }
end

return M
