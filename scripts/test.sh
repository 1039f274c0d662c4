#!/usr/bin/env bash
# The whole test suite: the README's test command (`npm test`) runs this.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$CONSIGN_ROOT"
# Before anything long: the browser tests at the end need Chromium.
consign_chromium
consign_install

# typecheck runs codegen first: every #graphql document in app/ against the Admin schema 2026-10, and the
# result and variables types the gateway checks the app's zod schemas and variables against.
echo "== codegen and typecheck"
npm run typecheck --silent
echo "== lint: ESLint (typescript-eslint, React and hooks rules) and Prettier's check over the whole tree"
npm run lint --silent
echo "== unit and integration tests"
npx vitest run
consign_postgres_tier
if [ -f vitest.e2e.config.ts ]; then
  echo "== end-to-end tests (Chromium)"
  npx vitest run --config vitest.e2e.config.ts
fi
