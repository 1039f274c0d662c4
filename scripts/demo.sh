#!/usr/bin/env bash
# The README's run command: installs what is missing, prepares the embedded databases, builds the app and
# starts the Shipping API service, the local Shopify admin and the app on their local defaults.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$CONSIGN_ROOT"
consign_install
node scripts/setup.mjs
npm run build --silent
exec node scripts/run.mjs "$@"
