---@mod kesi.reload After a command KeSi ran, show what it did to open files.
--- A command (`ruff format .`, `sed -i`, `git checkout`) may change files open in Neovim,
--- which only notices on focus or `:checktime`. VS Code reloads such buffers at once; here
--- `:checktime` does it for buffers without changes of their own, where 'autoread' allows a
--- silent reload (otherwise Neovim would stop to ask, and the user decides later). The
--- server refuses edits to a buffer the disk moved away from, so reloading is what lets the
--- agent go on.

local M = {}

--- Whether `bufnr` shows a file that a silent reload may replace.
---@param bufnr integer
---@return boolean
local function reloadable(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  if vim.bo[bufnr].modified or vim.api.nvim_buf_get_name(bufnr) == '' then
    return false
  end
  -- '&autoread' is the buffer's own value when set, else the global one.
  return vim.api.nvim_buf_call(bufnr, function()
    return vim.api.nvim_eval('&autoread') == 1
  end)
end

--- Reload the unmodified buffers whose file changed on disk.
function M.unmodified()
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if reloadable(bufnr) then
      pcall(vim.cmd, ('silent checktime %d'):format(bufnr))
    end
  end
end

return M
