---@mod kesi.config Options of the KeSi plugin and their defaults.

local M = {}

---@class kesi.Options
---@field enable? boolean call `vim.lsp.enable('kesi')` from setup() (default true)
---@field server? table KeSi settings (model, maxTurns, locale, ...) sent as init options and as the `kesi` section of workspace/configuration
---@field output? kesi.OutputOptions
---@field review? kesi.ReviewOptions
---@field notify_done? boolean say "KeSi: done · $0.0042" when a run ends and the output is hidden (default true)
---@field changes? kesi.ChangesOptions

---@class kesi.ChangesOptions
---@field signs? boolean a sign on every line of a change KeSi made that you have not kept or undone yet (default true)
---@field lenses? boolean show the server's code lenses ("KeSi: Keep" / "KeSi: Undo") over them (default true)

---@class kesi.OutputOptions
---@field open? boolean open the output split when a run starts (default true)
---@field position? string where the split goes: a `:split` modifier such as "botright" or "vertical botright" (default "botright")
---@field size? integer height (or width when vertical) of the split (default 12)

---@class kesi.ReviewOptions
---@field keys? { accept: string, accept_session: string, reject: string, close: string, accept_hunk: string, reject_hunk: string }

---@type kesi.Options
M.defaults = {
  enable = true,
  server = nil,
  notify_done = true,
  output = {
    open = true,
    position = 'botright',
    size = 12,
  },
  review = {
    keys = {
      accept = 'ga',
      accept_session = 'gA',
      reject = 'gr',
      close = 'q',
      accept_hunk = 'gh',
      reject_hunk = 'gH',
    },
  },
  changes = {
    signs = true,
    lenses = true,
  },
}

---@type kesi.Options
M.options = vim.deepcopy(M.defaults)

---@param opts kesi.Options?
function M.set(opts)
  vim.validate('opts', opts, 'table', true)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  return M.options
end

return M
