"""`python -m kesi_lsp` behaves exactly like the `kesi-lsp` console script."""

from kesi_lsp.cli import main

raise SystemExit(main())
