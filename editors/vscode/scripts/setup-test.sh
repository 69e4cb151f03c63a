#!/usr/bin/env bash
# Build the KeSi VS Code extension (.vsix) and the real-editor test rig (code-server from npm).
#
#   editors/vscode/scripts/setup-test.sh          # build what is missing or stale
#   editors/vscode/scripts/setup-test.sh --print  # print the rig's code-server directory
#
# Idempotent and cached. code-server, with its native modules compiled for this Node, is built
# once per (code-server version, Node ABI) under $KESI_VSCODE_RIG_CACHE (default
# ~/.cache/kesi-vscode-rig) and reused by every checkout on the machine; so are the extension's
# node_modules, per package-lock.json. The extension is repackaged only when a source changes.
# The Debian packages it needs are listed in apt-packages beside this script (./dev test
# installs them when it runs as root). With KESI_CI=1 a missing prerequisite is an error;
# otherwise the script says what is missing and the VS Code tests skip.
set -euo pipefail

ext_dir=$(cd "$(dirname "$0")/.." && pwd)
CODE_SERVER_VERSION=4.100.3
# Native modules of VS Code's server that the npm package leaves unbuilt on Linux. The others
# (@parcel/watcher) ship prebuilt binaries as npm packages; the windows-* ones are not used.
NATIVE_MODULES=(kerberos native-watchdog node-pty @vscode/deviceid @vscode/spdlog)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
missing() {
  if [ "${KESI_CI:-}" = 1 ]; then
    say "VS Code rig: $* (KESI_CI=1: failing)"
    exit 1
  fi
  say "VS Code rig: $*; the VS Code tests will be skipped"
  exit 0
}

command -v node >/dev/null || missing "node is not installed"
command -v npm >/dev/null || missing "npm is not installed"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" = 20 ] || missing "code-server $CODE_SERVER_VERSION needs Node 20, found $(node --version)"

cache_root=${KESI_VSCODE_RIG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kesi-vscode-rig}
rig="$cache_root/code-server-$CODE_SERVER_VERSION-node-abi$(node -p 'process.versions.modules')"
code_server="$rig/node_modules/code-server"

if [ "${1:-}" = --print ]; then
  echo "$code_server"
  exit 0
fi

node_gyp() {
  local gyp
  gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
  [ -f "$gyp" ] || missing "node-gyp (bundled with npm) not found at $gyp"
  # Build against the headers of the Node that runs code-server; never download them.
  local nodedir
  nodedir=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
  [ -f "$nodedir/include/node/node.h" ] || missing "Node headers not found under $nodedir/include/node"
  node "$gyp" rebuild --nodedir="$nodedir" -j max "$@"
}

# Compile one native module in place; its log is shown only if the build fails.
build_native() {
  local dir=$1
  shift
  local log
  log=$(mktemp)
  if ! (cd "$dir" && node_gyp "$@") >"$log" 2>&1; then
    tail -40 "$log" >&2
    say "building $(basename "$dir") failed (are the packages in apt-packages installed?)"
    exit 1
  fi
  rm -f "$log"
}

build_rig() {
  local tmp="$rig.partial"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  say "installing code-server $CODE_SERVER_VERSION from npm (install scripts off)"
  (cd "$tmp" && npm install --ignore-scripts --no-audit --no-fund --no-save --loglevel=error \
    "code-server@$CODE_SERVER_VERSION")
  local cs="$tmp/node_modules/code-server"
  local vs="$cs/lib/vscode"
  say "installing VS Code's server dependencies"
  (cd "$vs" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)

  # What code-server's postinstall would do, minus the parts that download or need a network.
  for module in "${NATIVE_MODULES[@]}"; do
    say "compiling $module"
    build_native "$vs/node_modules/$module"
  done
  # code-server loads argon2 at start-up even with --auth none; its install step would
  # download a prebuilt binary, so compile it and put it where node-pre-gyp looks.
  say "compiling argon2"
  build_native "$tmp/node_modules/argon2" --module_name=argon2 --module_path=unused \
    --napi_build_version=3
  mkdir -p "$tmp/node_modules/argon2/lib/binding/napi-v3"
  cp "$tmp/node_modules/argon2/build/Release/argon2.node" \
    "$tmp/node_modules/argon2/lib/binding/napi-v3/argon2.node"
  # @vscode/ripgrep's postinstall downloads rg; use the system's instead.
  local rg
  rg=$(command -v rg) || missing "rg (Debian package ripgrep) is not installed"
  mkdir -p "$vs/node_modules/@vscode/ripgrep/bin"
  cp "$rg" "$vs/node_modules/@vscode/ripgrep/bin/rg"
  ln -sfn node_modules "$vs/node_modules.asar"
  ln -sfn code-linux.sh "$vs/bin/remote-cli/code-server"
  ln -sfn browser-linux.sh "$vs/bin/helpers/browser.sh"

  say "checking the rig"
  for module in "${NATIVE_MODULES[@]}"; do
    (cd "$vs" && node -e "require('$module')")
  done
  HOME="$tmp" node "$cs/out/node/entry.js" --version >/dev/null
  rm -rf "$tmp/.config" "$tmp/.local"
  rm -rf "$rig"
  mv "$tmp" "$rig"
  touch "$rig/.complete"
}

ensure_rig() {
  mkdir -p "$cache_root"
  exec 9>"$cache_root/.lock"
  flock 9 # several checkouts on one machine share the cache
  if [ -f "$rig/.complete" ]; then
    say "code-server $CODE_SERVER_VERSION rig cached at $rig"
  else
    command -v chromium >/dev/null || missing "chromium (Debian package) is not installed"
    local started=$SECONDS
    build_rig
    say "code-server rig built in $((SECONDS - started)) s"
  fi
  exec 9>&-
}

# Reinstall node_modules only when the lock file changed (a fresh checkout takes them from the
# cache, hard-linked, keyed by the lock file); repackage only when a source changed.
ensure_extension() {
  cd "$ext_dir"
  local lock stamp cached
  lock=$(sha256sum package-lock.json | cut -c1-16)
  stamp="node_modules/.kesi-lock-$lock"
  cached="$cache_root/extension-node_modules-$lock"
  if [ ! -f "$stamp" ]; then
    if [ -f "$cached/.complete" ]; then
      say "extension npm dependencies from the cache"
      rm -rf node_modules
      cp -al "$cached/node_modules" node_modules 2>/dev/null || cp -a "$cached/node_modules" node_modules
    else
      say "installing the extension's npm dependencies (npm ci)"
      npm ci --no-audit --no-fund --loglevel=error
      touch "$stamp"
      mkdir -p "$cache_root"
      rm -rf "$cached.partial" && mkdir -p "$cached.partial"
      if cp -al node_modules "$cached.partial/node_modules" 2>/dev/null ||
        cp -a node_modules "$cached.partial/node_modules"; then
        touch "$cached.partial/.complete"
        rm -rf "$cached" && mv "$cached.partial" "$cached" || rm -rf "$cached.partial"
      fi
    fi
  fi
  local vsix=kesi-vscode.vsix
  if [ -f "$vsix" ] && [ -z "$(find src media package.json package-lock.json esbuild.mjs tsconfig.json \
    README.md .vscodeignore -newer "$vsix" -print -quit)" ]; then
    say "extension up to date: $ext_dir/$vsix"
    return 0
  fi
  say "building and packaging the extension"
  npm run --silent package >/dev/null
  say "extension packaged: $ext_dir/$vsix"
}

ensure_extension
ensure_rig
