#!/usr/bin/env bash
# The one test command (`npm test`): typecheck and lint, unit and API tests on the embedded
# PostgreSQL, the API tests that exercise the database server itself again on TEST_DATABASE_URL
# when it is set, then the end-to-end tests against the built server in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
# Two test files at a time: an API test spends most of its time waiting on PostgreSQL, so on a
# 2-core machine the second core is otherwise idle (vitest's default is one fewer than the cores).
echo "== unit and API tests (embedded PostgreSQL)"; npx vitest run --project unit --project api --maxWorkers=2
# On another server (another PostgreSQL version, roles, settings) what can differ is the database's
# own work: migrations (run for every pass), triggers, LISTEN/NOTIFY, the job queue, roles, dumps,
# locking under concurrency, search, cursors' text and the batched pages' lateral walks. Every other
# API file runs once, above.
SERVER_FILES=(foundation least-privilege backup past-one-machine jobs-mail ledger admin-counts price-cache
  reconciliation staff-late payments-initiate money-actions admin-status history-search admin-list
  list-cursors own-pages auth-sessions initiate-batches jobs-queue-table)
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== API tests on the database server (TEST_DATABASE_URL)"
  TEST_DB_TARGET=external npx vitest run --project api --maxWorkers=2 "${SERVER_FILES[@]/%/.test.ts}"
fi
echo "== end-to-end tests (Chromium)"
bash scripts/ensure-chromium.sh
npm run --silent build
# Each file starts its own server on its own embedded PostgreSQL: two files run at a time.
npx vitest run --project e2e --maxWorkers=2
