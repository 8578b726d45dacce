#!/usr/bin/env bash
# The one test command (`npm test`): typecheck and lint, unit and API tests on the embedded
# PostgreSQL, the API tests again on TEST_DATABASE_URL when it is set, then the end-to-end tests
# against the built server in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npx eslint --max-warnings 0 .
echo "== unit and API tests (embedded PostgreSQL)"; npx vitest run --project unit --project api
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== API tests (TEST_DATABASE_URL)"; TEST_DB_TARGET=external npx vitest run --project api
fi
echo "== end-to-end tests (Chromium)"
bash scripts/ensure-chromium.sh
npm run --silent build
npx vitest run --project e2e
