-- KeSi: commands and highlights, defined at start-up; everything else loads on first use.
if vim.g.loaded_kesi then
  return
end
vim.g.loaded_kesi = true

if vim.fn.has('nvim-0.11') == 0 then
  vim.notify_once('KeSi needs Neovim 0.11 or newer', vim.log.levels.WARN)
  return
end

require('kesi.commands').create()

local output = require('kesi.output')
output.define_highlights()
vim.api.nvim_create_autocmd('ColorScheme', {
  group = vim.api.nvim_create_augroup('kesi.highlights', { clear = true }),
  callback = output.define_highlights,
})
