// One price everywhere, and a bigger transfer never costs less (docs/rules/fees-and-rates.md): the calculator, the fees page, the transfer preview and the server agree to the unit.
// The screens compute from GET /api/fees and GET /api/rates exactly as below (calculator.tsx and
// transfer-page.tsx call computeQuote, fees-page.tsx calls feeSchedule); the server answers
// POST /api/quotes. A sample per corridor: every tier edge and corridor limit, one minor unit
// either side, and random amounts from a seeded generator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeesResponse, RatesResponse } from '@core/api/pricing.js';
import { DIRECTIONS } from '@core/channels.js';
import { feeSchedule } from '@core/fee-schedule.js';
import { computeQuote } from '@core/fees.js';
import { decimalToMinor, toDecimal } from '@core/money.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

/** mulberry32: the same amounts on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return (min: number, max: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return min + Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * (max - min + 1));
  };
}

describe('calculator, fees page, preview and server agree to the unit on every corridor', () => {
  it('POST /api/quotes answers the fee and total the screens compute, a few hundred amounts per corridor', async () => {
    const fees = (await t.request({ method: 'GET', url: '/api/fees' })).json() as FeesResponse;
    const rates = ((await t.request({ method: 'GET', url: '/api/rates' })).json() as RatesResponse).data;
    const draw = random(11);
    let compared = 0;
    for (const [index, d] of DIRECTIONS.entries()) {
      const currency = d.from;
      const corridor = fees.corridors?.find((c) => c.direction === d.id) ?? null;
      expect(corridor, d.id).not.toBeNull();
      const tiers = fees.data.filter((x) => x.direction === d.id);
      const min = decimalToMinor(corridor!.min_amount, currency)!;
      const max = decimalToMinor(corridor!.max_amount, currency)!;
      const edges = [min, max, ...tiers.flatMap((x) => [x.min_amount, x.max_amount]).filter((e) => e != null).map((e) => decimalToMinor(e!, currency)!)];
      const sample = new Set([...edges.flatMap((e) => [e - 1, e, e + 1]), ...Array.from({ length: 200 }, () => draw(min, max))]);
      // The fees page's ranges start where the fee may step: each range's first fee is the quote's.
      const schedule = feeSchedule(tiers, corridor, currency);
      expect(schedule[0]!.from).toBe(min);
      expect(schedule[schedule.length - 1]!.to).toBe(max);
      for (const range of schedule) sample.add(range.from);

      for (const amount of [...sample].filter((a) => a > 0)) {
        const screen = computeQuote({ direction: d.id, amount, tiers: fees.data, corridor, rates });
        const res = await t.request({
          method: 'POST', url: '/api/quotes', payload: { direction: d.id, amount: toDecimal(amount, currency) },
          // One client address per corridor keeps each under the public per-address limit.
          remoteAddress: `10.11.${index}.1`,
        });
        expect(res.statusCode, `${d.id} ${amount}`).toBe(200);
        const server = res.json().data;
        expect({ fee: server.fee, total: server.total, payout: server.payout }, `${d.id} ${toDecimal(amount, currency)}`).toEqual({
          fee: toDecimal(screen.fee, currency), total: toDecimal(screen.total, currency), payout: toDecimal(screen.payout, d.to),
        });
        const range = schedule.find((r) => r.from <= amount && (r.to === null || amount <= r.to));
        if (range?.from === amount) expect(screen.fee, `${d.id} ${amount}`).toBe(range.fee_from);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(12 * 200);
  }, 120_000);
});
