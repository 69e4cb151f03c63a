-- The `kesi` LSP config: `vim.lsp.enable('kesi')` starts kesi-lsp for files of a project.
-- Override any field with vim.lsp.config('kesi', {...}), e.g. init_options = {model = '...'}.

local handlers = require('kesi.handlers')
require('kesi.diagnostics') -- counts diagnostic updates from the start (kesi/diagnostics)

---@type vim.lsp.Config
return {
  cmd = { 'kesi-lsp' },
  -- The workspace folder is KeSi's fence: every tool works inside it and nowhere else.
  root_markers = {
    '.git',
    '.hg',
    'pyproject.toml',
    'setup.py',
    'package.json',
    'Cargo.toml',
    'go.mod',
    'Makefile',
  },
  -- KeSi settings (design.md §2.1): model, maxTokens, maxTurns, maxToolFailures,
  -- commandTimeout, sandbox, approvals, promptCaching, contextTrimming, contextBudget, locale,
  -- changeSets.
  -- Unset ones keep the server's defaults.
  init_options = vim.empty_dict(),
  capabilities = {
    experimental = {
      kesi = {
        stream = true,
        reviewEdit = true,
        saveDocuments = true,
        plan = true,
        diagnostics = true,
      },
    },
  },
  handlers = handlers.handlers,
  commands = {
    ['kesi.fixThis'] = function(command, ctx)
      require('kesi').fix_command(command, ctx)
    end,
    -- The lenses and code actions over KeSi's changes (design.md §2.9).
    ['kesi.keep'] = function(command, ctx)
      require('kesi.changes').run_command(command, ctx)
    end,
    ['kesi.undo'] = function(command, ctx)
      require('kesi.changes').run_command(command, ctx)
    end,
    ['kesi.undoRun'] = function(command, ctx)
      require('kesi.changes').run_command(command, ctx)
    end,
  },
  on_exit = function(_, _, client_id)
    vim.schedule(function()
      require('kesi.review').close_run(nil)
      require('kesi.runs').forget_client(client_id)
    end)
  end,
}
