import { SaxesParser } from 'saxes';
import { XmlRefusal } from '@server/lib/xml-refusal.js';
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

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const CURRENCY = /^[A-Z]{3}$/;
const RATE = /^[0-9]+(?:\.[0-9]+)?$/;
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Reads an ECB reference-rate file piece by piece with a streaming XML parser (saxes), in time
 * and memory linear in its size (the regular expressions it replaces took 19 s over 2 MB of
 * unclosed `<Cube time>` elements, the server answering nothing meanwhile). Refuses
 * (`ecb_file_invalid`) a file that is not well-formed XML, whose root is not an `Envelope`, that
 * passes {@link MAX_ECB_FILE_BYTES} or that holds no day.
 */
export class EcbFileReader {
  private readonly parser = new SaxesParser();
  private readonly days: EcbDay[] = [];
  private bytes = 0;
  private depth = 0;
  /** The day being read and the depth of its `Cube`. */
  private open: { day: EcbDay; depth: number } | null = null;
  private readonly refusal: XmlRefusal = new XmlRefusal('ecb_file_invalid');

  constructor() {
    this.parser.on('opentag', (tag) => {
      this.depth++;
      const name = localName(tag.name);
      if (this.depth === 1) {
        if (name !== 'Envelope') throw new AppError('ecb_file_invalid');
        return;
      }
      if (name !== 'Cube') return;
      const attributes = tag.attributes as Record<string, string>;
      if (!this.open) {
        const time = attributes.time?.trim();
        if (time !== undefined && DAY.test(time)) this.open = { day: { day: time, rates: new Map() }, depth: this.depth };
        return;
      }
      const currency = attributes.currency?.trim();
      const rate = attributes.rate?.trim();
      if (currency && rate && CURRENCY.test(currency) && RATE.test(rate)) this.open.day.rates.set(currency, rate);
    });
    this.parser.on('closetag', () => {
      if (this.open?.depth === this.depth) {
        this.days.push(this.open.day);
        this.open = null;
      }
      this.depth--;
    });
  }

  /** The next piece of the file (`bytes`: its size in the file, when the caller counted it). */
  write(text: string, bytes = Buffer.byteLength(text, 'utf8')): this {
    this.bytes += bytes;
    if (this.bytes > MAX_ECB_FILE_BYTES) this.refusal.fail();
    this.refusal.guard(() => this.parser.write(text));
    return this;
  }

  /** Every day of the file, latest first. */
  close(): EcbDay[] {
    this.refusal.guard(() => this.parser.close());
    if (this.days.length === 0) this.refusal.fail();
    return this.days.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
  }
}

/** Every day of the file, latest first; refused (`ecb_file_invalid`) when it is not an ECB reference-rate file. */
export function parseEcbFile(xml: string): EcbDay[] {
  // Its size checked before it is read: a longer file is refused unread.
  const bytes = Buffer.byteLength(xml, 'utf8');
  if (bytes > MAX_ECB_FILE_BYTES) throw new AppError('ecb_file_invalid');
  return new EcbFileReader().write(xml, bytes).close();
}

/** The latest day's USD rate per EUR, from the file or its days already read. */
export function latestUsd(file: string | EcbDay[]): { day: string; rate: string } {
  const latest = (typeof file === 'string' ? parseEcbFile(file) : file).find((d) => d.rates.has('USD'));
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
export async function importEcbRates(db: Db, prices: Pick<PriceCache, 'invalidate'>, actor: Actor | null, file: string | EcbDay[]): Promise<{ day: string; rate: string }> {
  const taken = latestUsd(file);
  await editPrices(db, prices, async (tx) => {
    const before = await lockRate(tx, 'EUR_USD');
    const row = await writeRate(tx, 'EUR_USD', oursFor(before, taken.rate), actor?.profile_id ?? null, { value: taken.rate, source: 'ecb' });
    const json = (r: RateRow) => ({ value: r.value, reference: r.reference, source: r.source, updated_at: r.updated_at.toISOString() });
    await recordAudit(tx, actor, { action: 'rate.update', target: 'rate', id: 'EUR_USD', before: before && json(before), after: { ...json(row), ecb_day: taken.day } });
  });
  return taken;
}

/**
 * The scheduled fetch (durable work, src/server/worker.ts): the file at `url` imported as an upload
 * would be. A failure (network, HTTP status, not an ECB file) fails the job, retried later.
 * Its size is checked before it is read: a `Content-Length` over {@link MAX_ECB_FILE_BYTES}
 * is refused unread, and the body is parsed as it arrives, the download stopped as soon as it
 * passes that size (a server that sends no length, or a wrong one, included).
 */
export async function fetchEcbRates(deps: { db: Db; prices: Pick<PriceCache, 'invalidate'>; log: { info: (o: object, m: string) => void } }, url: string, signal?: AbortSignal) {
  const res = await fetch(url, { signal: signal ?? AbortSignal.timeout(30_000), headers: { accept: 'application/xml, text/xml' } });
  if (!res.ok) throw new Error(`ECB rates: HTTP ${res.status}`);
  const tooLarge = () => new Error('ECB rates: file too large');
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  if (length > MAX_ECB_FILE_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const reader = new EcbFileReader();
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  if (res.body) {
    const body = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await body.read();
        if (done) break;
        bytes += value.byteLength;
        if (bytes > MAX_ECB_FILE_BYTES) throw tooLarge();
        reader.write(decoder.decode(value, { stream: true }), value.byteLength);
      }
    } finally {
      // Ends the download when the file was refused half-way (nothing when it was read whole).
      await body.cancel().catch(() => undefined);
    }
  }
  reader.write(decoder.decode(), 0);
  const taken = await importEcbRates(deps.db, deps.prices, null, reader.close());
  deps.log.info({ day: taken.day, rate: taken.rate }, 'ECB EUR→USD reference imported');
  return taken;
}
