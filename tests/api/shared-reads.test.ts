import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import * as schema from '@server/db/schema.js';
import { ruleSettings } from '@server/modules/monitoring/settings.js';
import { screeningIndex } from '@server/modules/screening/index-cache.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// What every initiation reads from memory (the monitoring rules' settings, the screening lists'
// versions) is read again from the database when its copy is 5 seconds old: once, however many
// requests arrive while that read is under way. Read once per request, a busy server's pool
// filled with these reads every 5 seconds and its transfers waited behind them.
let app: TestApp;
let offset = 0;
beforeAll(async () => {
  app = await createTestApp();
  const realNow = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await app?.close();
});

/** A database handle that notes the text of every statement it sends. */
function countingDb() {
  const sent: string[] = [];
  const db = drizzle(app.database.pool, { schema, logger: { logQuery: (text) => { sent.push(text); } } });
  return { db, sent };
}

it('fifty requests at once read the rules\' settings once, and once again when the copy is over 5 seconds old', async () => {
  const { db, sent } = countingDb();
  const reads = () => sent.filter((text) => text.includes('from monitoring_rules')).length;
  const first = await Promise.all(Array.from({ length: 50 }, () => ruleSettings(db)));
  expect(reads()).toBe(1);
  expect(new Set(first).size).toBe(1);
  offset += 5_001;
  await Promise.all(Array.from({ length: 50 }, () => ruleSettings(db)));
  expect(reads()).toBe(2);
});

it('fifty requests at once read the screening lists\' versions once, and once again when the copy is over 5 seconds old', async () => {
  const { db, sent } = countingDb();
  const cache = screeningIndex(db);
  const reads = () => sent.filter((text) => text.includes('from screening_sources')).length;
  await Promise.all(Array.from({ length: 50 }, () => cache.state()));
  expect(reads()).toBe(1);
  offset += 5_001;
  await Promise.all(Array.from({ length: 50 }, () => cache.state()));
  expect(reads()).toBe(2);
});
