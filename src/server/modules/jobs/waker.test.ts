import type pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { jobWaker } from './waker.js';

/** A pool that keeps the wake-ups it is asked to send. */
function listeningPool() {
  const sent: { count: number }[] = [];
  const pool = { query: (_text: string, params: [string, string]) => { sent.push(JSON.parse(params[1]) as { count: number }); return Promise.resolve(); } };
  return { pool: pool as unknown as pg.Pool, sent };
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
});
