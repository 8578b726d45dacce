import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { freePort } from '@server/lib/free-port.js';
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

/** A real `redis-server` of the test's own on loopback, keeping nothing on disk. */
export class RedisServer {
  private child: ChildProcess | null = null;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (again on its earlier port once it has run) and waits until it answers. */
  async start(): Promise<this> {
    this.port ||= await freePort();
    const child = spawn('/usr/bin/redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.child = child;
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      for (let tries = 0; ; tries++) {
        if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode})`);
        try {
          await probe.connect();
          await probe.ping();
          return this;
        } catch (err) {
          probe.disconnect();
          if (tries > 100) throw err;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      probe.disconnect();
    }
  }

  /** Stops it answering while its connections stay open, as a peer behind a broken network does; resume() undoes it. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills it outright, as a crash or a lost machine would. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    child.kill('SIGCONT');
    await exited;
  }
}
