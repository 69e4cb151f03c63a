"""What the sandbox hides, freezes or opens: the seed's lists, sorted by what each entry is.

The seed (Day 15) made every name of the ignore list unreadable to shell commands. Its own
reviewer found the price: `git status` (on the auto-allow list!) could not read `.git`, and a
project's `.venv` interpreter could not start. The ignore list holds two different things, so
the sandbox treats them differently, and says so to the model:

- Secrets: `.env`, `.env.*` and `.DS_Store` hold credentials or private metadata, and no build
  or test needs to read them through the agent. Unreadable ("Permission denied").
- Tool state: `.git`, `.venv`, `venv`, `node_modules`, `__pycache__` are what git, Python and
  node need to run at all. Readable, so `git status`, `.venv/bin/python -m pytest` and
  `npm test` work; not writable, because they hold code that runs later *outside* the sandbox
  (git hooks, a venv's site-packages and activate script, node_modules/.bin, .pyc files) and
  that no diff in the editor would ever show. The trade-off: inside the sandbox, `git commit`
  or `pip install` into the project's venv fail with "Read-only file system"; the user does
  those (and the sandbox has no network for installs anyway). `.git/config` is shown empty: it
  may carry tokens in remote URLs and can name programs git would run (`core.fsmonitor`,
  `core.pager`, diff drivers); git works with defaults without it.
- Caches: `.pytest_cache` holds only test ids and stays writable, so pytest does not warn on
  every run. It is still invisible to the file tools, as the ignore list says.

A new `.venv` made inside the sandbox (`python -m venv .venv`) works, because masks are decided
when each command starts; from the next command on it is read-only like any other.
"""

from __future__ import annotations

from typing import Final

SECRET_NAMES: Final = (".env", ".DS_Store")
SECRET_PREFIXES: Final = (".env.",)
READONLY_NAMES: Final = (".git", ".venv", "venv", "node_modules", "__pycache__")
WRITABLE_IGNORED_NAMES: Final = (".pytest_cache",)

TOOLCHAIN_DIRS: Final = (
    ".local",
    ".cargo",
    ".rustup",
    ".bun",
    ".deno",
    ".volta",
    ".pyenv",
    ".rbenv",
    ".nodenv",
    ".nvm",
    ".asdf",
    ".mise",
    ".sdkman",
    ".gem",
    ".npm",
    ".yarn",
    ".pnpm",
    ".cache/uv",
    ".cache/pip",
)
"""Folders under home that stay readable (seed Day 15): the price of a home-installed Python,
Node or Rust. Each one is a hole: anything else kept in `~/.local` is readable too."""

SECRET_HOME_DIRS: Final = (
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".kube",
    ".docker",
    ".password-store",
    ".config/gcloud",
    ".config/gh",
)
"""Credential folders under home that no toolchain or environment folder may open, nor contain:
a `PATH` entry such as `~/.ssh` (or one whose folder holds it) is simply not mounted. (The
seed's `~/.local` stays a known hole: a keyring under `~/.local/share` is readable.)"""
