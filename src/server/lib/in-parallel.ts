/** Runs `work` over the items, at most `atOnce` at a time. */
export async function inParallel<T>(items: readonly T[], atOnce: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
}
