-- The Neovim the tests drive: the plugin from editors/nvim, set up the way its README says
-- (or, with KESI_NVIM_PLAIN=1, no plugin at all: the README's block for Neovim without it).
if os.getenv('KESI_NVIM_PLAIN') ~= '1' then
  vim.opt.rtp:prepend(assert(os.getenv('KESI_NVIM_PLUGIN')))
end
vim.o.swapfile = false
vim.o.more = false
vim.o.shortmess = vim.o.shortmess .. 'IWs'

-- Record what vim.ui.select is asked (prompt and item texts), then let Neovim's own
-- vim.ui.select answer: the tests type the number and <CR> into its prompt.
_G.kesi_test = { selects = {} }
local select = vim.ui.select
vim.ui.select = function(items, opts, on_choice)
  local format = opts.format_item or tostring
  table.insert(_G.kesi_test.selects, {
    prompt = opts.prompt,
    items = vim.tbl_map(format, items),
  })
  return select(items, opts, on_choice)
end

if os.getenv('KESI_NVIM_PLAIN') == '1' then
  -- README, "Neovim 0.11 without the plugin", word for word.
  vim.lsp.config('kesi', {
    cmd = { 'kesi-lsp' },
    filetypes = { 'python' },
    root_markers = { '.git' },
    init_options = { kesi = { approvals = 'ask' } },
  })
  vim.lsp.enable('kesi')
  vim.api.nvim_create_autocmd({ 'FocusGained', 'BufEnter', 'CursorHold' }, { command = 'checktime' })
elseif os.getenv('KESI_NVIM_ENABLE_ONLY') == '1' then
  vim.lsp.enable('kesi') -- the minimal setup the README promises
else
  require('kesi').setup(vim.json.decode(os.getenv('KESI_NVIM_SETUP') or '{}'))
end
