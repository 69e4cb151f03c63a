-- KeSi: commands and highlights, defined at start-up; everything else loads on first use.
if vim.g.loaded_kesi then
  return
end
vim.g.loaded_kesi = true

local version = require('kesi.version')
if not version.supported() then
  version.warn()
  return
end

require('kesi.commands').create()

local output = require('kesi.output')
output.define_highlights()
vim.api.nvim_create_autocmd('ColorScheme', {
  group = vim.api.nvim_create_augroup('kesi.highlights', { clear = true }),
  callback = output.define_highlights,
})
