import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './test-app.js';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface AppsSharingRedis { a: TestApp; b: TestApp; redis: Redis; prefix: string }

/**
 * Two apps counting in one Redis, as two server processes would, under a key prefix of their own
 * (removed afterwards). Registers the file's hooks; the fields are set once beforeAll has run.
 */
export function useAppsSharingRedis(env: () => Record<string, string> = () => ({})): AppsSharingRedis {
  const shared = { prefix: `mt-test:${randomBytes(6).toString('hex')}:` } as AppsSharingRedis;
  beforeAll(async () => {
    const all = { ...env(), REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: shared.prefix };
    [shared.a, shared.b] = await Promise.all([createTestApp({ env: all }), createTestApp({ env: all })]);
    shared.redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    const keys = await shared.redis?.keys(`${shared.prefix}*`);
    if (keys?.length) await shared.redis.del(...keys);
    await shared.redis?.quit();
    await shared.a?.close();
    await shared.b?.close();
  });
  return shared;
}
