import { ratioToDecimal, parseDecimal, pow10 } from '@core/money.js';
import { AppError } from '@core/errors.js';
import type { Db } from '@server/db/client.js';
import type { PriceCache } from '@server/lib/price-cache.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { lockRate, writeRate, type RateRow } from './repo.js';
import { editPrices } from './service.js';

// The ECB's euro reference rates (docs/rules/fees-and-rates.md#rate-sources): its daily file
// (eurofxref-daily.xml) or the last 90 days' (eurofxref-hist-90d.xml), both
// `gesmes:Envelope > Cube > Cube time="YYYY-MM-DD" > Cube currency="USD" rate="1.0512"`, in
// units of the currency per 1 EUR. The latest day's USD rate becomes EUR→USD's reference; ours
// moves with it, keeping its margin.

/** The largest file taken: the 90 days' file is about 50 KB. */
export const MAX_ECB_FILE_BYTES = 2 * 1024 * 1024;

export interface EcbDay { day: string; rates: Map<string, string> }

/** Every day of the file, latest first; refused (`ecb_file_invalid`) when it is not an ECB reference-rate file. */
export function parseEcbFile(xml: string): EcbDay[] {
  if (!/<(?:gesmes:)?Envelope[\s>]/.test(xml)) throw new AppError('ecb_file_invalid');
  const days: EcbDay[] = [];
  const dayPattern = /<Cube\s+time\s*=\s*["'](\d{4}-\d{2}-\d{2})["']\s*>([\s\S]*?)<\/Cube>/g;
  for (const match of xml.matchAll(dayPattern)) {
    const rates = new Map<string, string>();
    for (const cube of match[2]!.matchAll(/<Cube\s+([^>]*?)\/?>/g)) {
      const currency = /currency\s*=\s*["']([A-Z]{3})["']/.exec(cube[1]!)?.[1];
      const rate = /rate\s*=\s*["']([0-9]+(?:\.[0-9]+)?)["']/.exec(cube[1]!)?.[1];
      if (currency && rate) rates.set(currency, rate);
    }
    days.push({ day: match[1]!, rates });
  }
  if (days.length === 0) throw new AppError('ecb_file_invalid');
  return days.sort((a, b) => (a.day < b.day ? 1 : -1));
}

/** The latest day's USD rate per EUR. */
export function latestUsd(xml: string): { day: string; rate: string } {
  const latest = parseEcbFile(xml).find((d) => d.rates.has('USD'));
  if (!latest) throw new AppError('ecb_file_invalid');
  return { day: latest.day, rate: latest.rates.get('USD')! };
}

/** Ours moved with the reference, its margin kept: new reference × ours ÷ old reference, 10 decimals. */
function oursFor(before: RateRow | null, reference: string): string {
  if (!before) return reference;
  const ours = parseDecimal(before.value)!;
  const old = parseDecimal(before.reference ?? before.value)!;
  const next = parseDecimal(reference)!;
  return ratioToDecimal(next.units * ours.units * pow10(old.scale), pow10(next.scale) * pow10(ours.scale) * old.units, 10);
}

/**
 * Sets EUR→USD's reference from the file's latest day (source `ecb`), ours keeping its margin;
 * audited as a rate edit (`actor` null: the scheduled fetch). Answers the day and rate taken.
 */
export async function importEcbRates(db: Db, prices: Pick<PriceCache, 'invalidate'>, actor: Actor | null, xml: string): Promise<{ day: string; rate: string }> {
  const taken = latestUsd(xml);
  await editPrices(db, prices, async (tx) => {
    const before = await lockRate(tx, 'EUR_USD');
    const row = await writeRate(tx, 'EUR_USD', oursFor(before, taken.rate), actor?.profile_id ?? null, { value: taken.rate, source: 'ecb' });
    const json = (r: RateRow) => ({ value: r.value, reference: r.reference, source: r.source, updated_at: r.updated_at.toISOString() });
    await recordAudit(tx, actor, { action: 'rate.update', target: 'rate', id: 'EUR_USD', before: before && json(before), after: { ...json(row), ecb_day: taken.day } });
  });
  return taken;
}

/**
 * The scheduled fetch (durable work, jobs/worker.ts): the file at `url` imported as an upload
 * would be. A failure (network, HTTP status, not an ECB file) fails the job, retried later.
 */
export async function fetchEcbRates(deps: { db: Db; prices: Pick<PriceCache, 'invalidate'>; log: { info: (o: object, m: string) => void } }, url: string, signal?: AbortSignal) {
  const res = await fetch(url, { signal: signal ?? AbortSignal.timeout(30_000), headers: { accept: 'application/xml, text/xml' } });
  if (!res.ok) throw new Error(`ECB rates: HTTP ${res.status}`);
  const text = await res.text();
  if (text.length > MAX_ECB_FILE_BYTES) throw new Error('ECB rates: file too large');
  const taken = await importEcbRates(deps.db, deps.prices, null, text);
  deps.log.info({ day: taken.day, rate: taken.rate }, 'ECB EUR→USD reference imported');
  return taken;
}
