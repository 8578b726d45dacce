// docs/rules/screening.md#bounds
import { describe, expect, it } from 'vitest';
import type { ListedEntry } from '@core/screening/types.js';
import { counted, type ListCounts } from './entry.js';
import { ListBoundsError } from './format-error.js';

async function* entries(n: number, name = (i: number) => `Person ${i}`): AsyncGenerator<ListedEntry> {
  for (let i = 0; i < n; i++) yield { source: 'eu', list_id: String(i), names: [name(i)], kind: 'person' };
}

async function drain(source: AsyncIterable<ListedEntry>): Promise<ListedEntry[]> {
  const out: ListedEntry[] = [];
  for await (const e of source) out.push(e);
  return out;
}

describe('an import\'s counts and bounds', () => {
  it('cuts a name past 500 characters to 500, and counts it', async () => {
    const counts: ListCounts = { entries: 0, names: 0, names_cut: 0 };
    const out = await drain(counted(entries(3, (i) => (i === 1 ? `Giant ${'a'.repeat(16_500)}` : `Person ${i}`)), counts, 'eu.csv'));
    expect(out.map((e) => e.names[0]!.length)).toEqual([8, 500, 8]);
    expect(counts).toEqual({ entries: 3, names: 3, names_cut: 1 });
  });

  it('takes 500,000 entries and refuses the file at the 500,001st', async () => {
    const counts: ListCounts = { entries: 0, names: 0, names_cut: 0 };
    expect((await drain(counted(entries(500_000), counts, 'eu.csv'))).length).toBe(500_000);
    const over: ListCounts = { entries: 0, names: 0, names_cut: 0 };
    const refused = drain(counted(entries(500_001), over, 'eu.csv'));
    await expect(refused).rejects.toThrow(ListBoundsError);
    await expect(refused).rejects.toThrow('eu.csv: more than 500,000 entries');
  });
});
