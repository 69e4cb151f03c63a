---@mod kesi.health `:checkhealth kesi`

local M = {}

--- Neovim before 0.10 has `report_*` names, and before 0.8 only `require('health')`: an old
--- editor must get a report about its version, not a crash of the health check itself.
local function reporter()
  local health = vim.health or require('health')
  return {
    start = health.start or health.report_start,
    ok = health.ok or health.report_ok,
    error = health.error or health.report_error,
  }
end

function M.check()
  local version = require('kesi.version')
  if not version.supported() then
    local report = reporter()
    report.start('KeSi')
    report.error(version.message(), version.advice)
    return
  end
  vim.health.start('KeSi')
  vim.health.ok('Neovim ' .. version.current())

  local cmd = vim.lsp.config.kesi and vim.lsp.config.kesi.cmd
  local exe = type(cmd) == 'table' and cmd[1] or nil
  if not exe then
    vim.health.info('kesi cmd is a function; not checked')
  elseif vim.fn.executable(exe) == 1 then
    local res = vim.system({ exe, '--version' }, { text = true }):wait(10000)
    vim.health.ok(('%s: %s'):format(vim.fn.exepath(exe), vim.trim(res.stdout or '')))
  else
    vim.health.error(
      ('%s is not executable'):format(exe),
      { 'pip install kesi-lsp (or put its .venv/bin on $PATH)' }
    )
  end

  if vim.lsp.is_enabled('kesi') then
    vim.health.ok("vim.lsp.enable('kesi') is on")
  else
    vim.health.warn("the kesi config is not enabled", { "require('kesi').setup() or vim.lsp.enable('kesi')" })
  end

  local clients = vim.lsp.get_clients({ name = 'kesi' })
  if #clients == 0 then
    vim.health.info('no kesi-lsp server running (open a file of a project)')
  end
  for _, client in ipairs(clients) do
    local folders = vim.tbl_map(function(f)
      return vim.uri_to_fname(f.uri)
    end, client.workspace_folders or {})
    vim.health.ok(('server %d serves %s'):format(client.id, table.concat(folders, ', ')))
  end
  if vim.env.ANTHROPIC_API_KEY == nil or vim.env.ANTHROPIC_API_KEY == '' then
    vim.health.warn('ANTHROPIC_API_KEY is not set in this Neovim', {
      'export ANTHROPIC_API_KEY=... before starting Neovim (the server inherits the environment)',
    })
  end
end

return M
