import { afterEach, describe, expect, it, vi } from 'vitest';
import { batched } from './batches.js';

/** A run whose batches stay open until released, recording what each batch held. */
function gatedRun(fail: (input: number) => boolean = () => false) {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const run = async (inputs: number[]) => {
    batches.push(inputs);
    await new Promise<void>((resolve) => gates.push(resolve));
    if (inputs.some(fail)) throw new Error(`bad input in ${inputs.join(',')}`);
    return inputs.map((n) => n * 10);
  };
  const releaseAll = async () => {
    while (gates.length) {
      gates.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { batches, run, releaseAll };
}

describe('batched calls', () => {
  it('runs a call at once when nothing else runs, and the calls arriving meanwhile together next', async () => {
    const { batches, run, releaseAll } = gatedRun();
    const call = batched(run, { maxSize: 10, maxRunning: 1 });
    const first = call(1);
    expect(batches).toEqual([[1]]);
    const later = [call(2), call(3), call(4)];
    expect(batches).toEqual([[1]]);
    await releaseAll();
    expect(await first).toBe(10);
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('runs up to maxRunning batches at a time, none larger than maxSize', async () => {
    const { batches, run, releaseAll } = gatedRun();
    const call = batched(run, { maxSize: 2, maxRunning: 2 });
    const answers = [1, 2, 3, 4, 5, 6].map((n) => call(n));
    expect(batches).toEqual([[1], [2]]);
    await releaseAll();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches.slice(2)).toEqual([[3, 4], [5, 6]]);
  });

  it('a batch that fails is run again call by call: only the bad call fails', async () => {
    const { batches, run, releaseAll } = gatedRun((n) => n === 3);
    const call = batched(run, { maxSize: 10, maxRunning: 1 });
    const answers = [1, 2, 3, 4].map((n) => call(n).then((v) => ({ v }), (err: Error) => ({ err: err.message })));
    await releaseAll();
    expect(await Promise.all(answers)).toEqual([{ v: 10 }, { v: 20 }, { err: 'bad input in 3' }, { v: 40 }]);
    expect(batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('a run that answers too few outputs fails its calls instead of answering undefined', async () => {
    const call = batched(async () => [], { maxSize: 10, maxRunning: 1 });
    await expect(call(1)).rejects.toThrow('a batch of 1 answered 0');
  });

  describe('with a least time between batches (everyMs)', () => {
    afterEach(() => { vi.useRealTimers(); });

    it('runs a call at once after a quiet spell; calls within a quarter second of that go together once it has passed, while the first still runs', async () => {
      vi.useFakeTimers();
      const { batches, run, releaseAll } = gatedRun();
      const call = batched(run, { maxSize: 10, maxRunning: 5, everyMs: 250 });
      const first = call(1);
      expect(batches).toEqual([[1]]);
      const later = [call(2), call(3)];
      await vi.advanceTimersByTimeAsync(100);
      const last = call(4);
      await vi.advanceTimersByTimeAsync(149);
      expect(batches).toEqual([[1]]);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([[1], [2, 3, 4]]);
      // A quarter second after that batch began, a call goes at once again.
      await vi.advanceTimersByTimeAsync(250);
      const alone = call(5);
      expect(batches).toEqual([[1], [2, 3, 4], [5]]);
      vi.useRealTimers();
      await releaseAll();
      expect(await Promise.all([first, ...later, last, alone])).toEqual([10, 20, 30, 40, 50]);
    });
  });
});
