---@mod kesi.client Finding the KeSi language server client and calling its commands.

local M = {}

M.name = 'kesi'

--- The KeSi client for a buffer: the one attached to it, else the one whose workspace folder
--- holds the buffer's file, else (for buffers that are not files) the only one running.
---@param bufnr integer?
---@return vim.lsp.Client?
function M.for_buffer(bufnr)
  if not bufnr or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local attached = vim.lsp.get_clients({ name = M.name, bufnr = bufnr })
  if attached[1] then
    return attached[1]
  end
  local clients = vim.lsp.get_clients({ name = M.name })
  local fname = vim.api.nvim_buf_get_name(bufnr)
  if fname ~= '' then
    for _, client in ipairs(clients) do
      for _, folder in ipairs(client.workspace_folders or {}) do
        if vim.fs.relpath(vim.uri_to_fname(folder.uri), fname) then
          return client
        end
      end
    end
  end
  if #clients == 1 then
    return clients[1]
  end
  return nil
end

--- Like for_buffer, but says what to do when there is no client.
---@param bufnr integer?
---@return vim.lsp.Client?
function M.require(bufnr)
  local client = M.for_buffer(bufnr)
  if not client then
    vim.notify(
      'KeSi: no kesi-lsp server for this buffer. Open a file of your project '
        .. "(kesi-lsp on $PATH, vim.lsp.enable('kesi')); see :checkhealth kesi",
      vim.log.levels.ERROR
    )
  end
  return client
end

--- The workspace folder of `client` that holds `fname`, for short titles.
---@param client vim.lsp.Client
---@param fname string
---@return string
function M.relative(client, fname)
  for _, folder in ipairs(client.workspace_folders or {}) do
    local rel = vim.fs.relpath(vim.uri_to_fname(folder.uri), fname)
    if rel then
      return rel
    end
  end
  return vim.fn.fnamemodify(fname, ':~:.')
end

--- Run `workspace/executeCommand` with KeSi's single object argument.
---@param client vim.lsp.Client
---@param command string e.g. "kesi.cost"
---@param args table
---@param bufnr integer?
---@param on_result fun(result: any)
function M.execute(client, command, args, bufnr, on_result)
  local params = { command = command, arguments = { args } }
  client:request('workspace/executeCommand', params, function(err, result)
    if err then
      vim.notify(('KeSi: %s'):format(err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    on_result(result)
  end, bufnr)
end

--- The uri argument for a buffer when it is a file, else nil (the server then uses the first
--- workspace folder).
---@param bufnr integer
---@return string?
function M.uri(bufnr)
  if vim.bo[bufnr].buftype == '' and vim.api.nvim_buf_get_name(bufnr) ~= '' then
    return vim.uri_from_bufnr(bufnr)
  end
  return nil
end

return M
