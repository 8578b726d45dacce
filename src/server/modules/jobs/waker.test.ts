import type pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jobWaker } from './waker.js';

/** A pool that keeps the wake-ups it is asked to send. */
function listeningPool() {
  const sent: { count: number }[] = [];
  const times: number[] = [];
  const pool = { query: (_text: string, params: [string, string]) => { sent.push(JSON.parse(params[1]) as { count: number }); times.push(Date.now()); return Promise.resolve(); } };
  return { pool: pool as unknown as pg.Pool, sent, times };
}

describe('waking the workers for jobs taken in batches', () => {
  it('wakes one worker of each process for any number of them, beside the jobs taken one by one', async () => {
    const { pool, sent } = listeningPool();
    const waker = jobWaker(pool, pino({ level: 'silent' }));
    for (let i = 0; i < 50; i++) waker.added(1, 'in batches');
    waker.added(2);
    await waker.close();
    expect(sent).toEqual([{ count: 3 }]);
  });

  it('wakes one for a burst of them alone', async () => {
    const { pool, sent } = listeningPool();
    const waker = jobWaker(pool, pino({ level: 'silent' }));
    for (let i = 0; i < 50; i++) waker.added(1, 'in batches');
    await waker.close();
    expect(sent).toEqual([{ count: 1 }]);
  });

  describe('arriving one by one', () => {
    afterEach(() => { vi.useRealTimers(); });

    it('wakes at once after a quiet spell, then at most once a quarter second, while the jobs taken one by one still go within 20 ms', async () => {
      vi.useFakeTimers();
      const { pool, sent, times } = listeningPool();
      const waker = jobWaker(pool, pino({ level: 'silent' }));
      const started = Date.now();
      // A callback every 20 ms for half a second, and a job taken one by one at 110 ms.
      for (let ms = 0; ms < 500; ms += 10) {
        if (ms % 20 === 0) waker.added(1, 'in batches');
        if (ms === 110) waker.added(1);
        await vi.advanceTimersByTimeAsync(10);
      }
      await vi.advanceTimersByTimeAsync(250);
      await waker.close();
      const at = sent.map(({ count }, n) => ({ ms: times[n]! - started, count }));
      expect(at).toEqual([{ ms: 0, count: 1 }, { ms: 110, count: 1 }, { ms: 250, count: 1 }, { ms: 500, count: 1 }]);
    });
  });
});
