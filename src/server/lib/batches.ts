// Calls that arrive while earlier ones are still running are run together, as one batch: a busy
// server sends one statement (one round trip, one commit) for many requests, an idle one sends
// each call at once, waiting for nothing (docs/decisions/022-initiation-throughput.md).

export interface BatchOptions {
  /** Most calls in one batch. */
  maxSize: number;
  /** Most batches running at a time; calls beyond wait for one to end, then go together. */
  maxRunning: number;
  /**
   * Least time between two batches' starts: calls arriving sooner wait for it and go together
   * (a call after a quiet spell still goes at once). None: only maxRunning holds calls back.
   */
  everyMs?: number;
}

/**
 * `run` takes the batch's inputs and answers one output per input, in their order. When a batch
 * of several fails, each of its calls is run again alone, so one bad input fails only its own call.
 */
export function batched<In, Out>(run: (inputs: In[]) => Promise<Out[]>, options: BatchOptions): (input: In) => Promise<Out> {
  interface Call { input: In; resolve: (out: Out) => void; reject: (err: unknown) => void }
  let waiting: Call[] = [];
  let running = 0;
  let lastStart = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;

  async function runBatch(calls: Call[]) {
    try {
      const outputs = await run(calls.map((c) => c.input));
      if (outputs.length !== calls.length) throw new Error(`a batch of ${calls.length} answered ${outputs.length}`);
      calls.forEach((c, i) => c.resolve(outputs[i]!));
    } catch (err) {
      if (calls.length === 1) calls[0]!.reject(err);
      else await Promise.all(calls.map((c) => runBatch([c])));
    }
  }

  function startNext() {
    while (running < options.maxRunning && waiting.length > 0) {
      const early = lastStart + (options.everyMs ?? 0) - performance.now();
      if (early > 0) {
        timer ??= setTimeout(() => {
          timer = null;
          startNext();
        }, early);
        return;
      }
      lastStart = performance.now();
      const calls = waiting.slice(0, options.maxSize);
      waiting = waiting.slice(calls.length);
      running++;
      void runBatch(calls).finally(() => {
        running--;
        startNext();
      });
    }
  }

  return (input) => new Promise<Out>((resolve, reject) => {
    waiting.push({ input, resolve, reject });
    startNext();
  });
}
