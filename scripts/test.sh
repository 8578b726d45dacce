#!/usr/bin/env bash
# The one test command (`npm test`): typecheck and lint, unit and API tests on the embedded
# PostgreSQL, the API tests that exercise the database server itself again on TEST_DATABASE_URL
# when it is set, then the end-to-end tests against the built server in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
echo "== unit and API tests (embedded PostgreSQL)"; npx vitest run --project unit --project api
# On another server (another PostgreSQL version, roles, settings) what can differ is the database's
# own work: migrations (run for every pass), triggers, LISTEN/NOTIFY, the job queue, roles, dumps,
# locking under concurrency, search, cursors' text and the batched pages' lateral walks. Every other
# API file runs once, above.
SERVER_FILES=(foundation least-privilege backup past-one-machine jobs-mail ledger admin-counts price-cache
  reconciliation staff-late payments-initiate money-actions admin-status history-search admin-list
  list-cursors own-pages auth-sessions initiate-batches jobs-queue-table)
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== API tests on the database server (TEST_DATABASE_URL)"
  TEST_DB_TARGET=external npx vitest run --project api "${SERVER_FILES[@]/%/.test.ts}"
fi
echo "== end-to-end tests (Chromium)"
bash scripts/ensure-chromium.sh
npm run --silent build
npx vitest run --project e2e
