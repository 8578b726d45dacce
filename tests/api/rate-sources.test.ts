// Rates with their source (docs/rules/fees-and-rates.md#rate-sources): each rate's reference,
// margin and age; a rate older than its maximum age (36 hours unless the admin sets another) refuses
// quotes until it is refreshed; an expired quote asked by payout is renewed by payout.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotes } from '@server/db/schema.js';
import { rateFigure, readableRate, type QuotedRate } from '@web/lib/rate-text';
import { ECB_THREE_DAYS, ecbRatesFile } from '../support/ecb-rates-file.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

let t: TestApp;
let admin: TestUser;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, sender] = await Promise.all([createUser(t, { role: 'admin' }), createUser(t, { kyc_level: 3 })]);
});
afterAll(async () => { await t.close(); });

const quote = (payload: Record<string, unknown>, token?: string, lang?: string) =>
  t.request({ method: 'POST', url: '/api/quotes', payload, token, remoteAddress: uniqueAddress(), ...(lang ? { headers: { 'accept-language': lang } } : {}) });
const sources = async () => (await t.request({ method: 'GET', url: '/api/rates/sources', token: admin.token })).json().data as {
  rates: { key: string; ours: string; reference: string; source: string; margin: string; updated_at: string; stale: boolean }[]; max_age_hours: number;
};

/** Sets a rate's last change `age` ago (SQL interval) and tells every process's price cache, as an edit would. */
async function ageRate(key: string, age: string) {
  await t.database.pool.query(`update rates set updated_at = now() - $2::interval where key = $1`, [key, age]);
  await t.database.pool.query(`select pg_notify('prices_changed', '')`);
  // The notification clears the cache asynchronously: wait until the published rates show the new age.
  const wanted = (await t.database.pool.query<{ at: Date }>(`select updated_at as at from rates where key = $1`, [key])).rows[0]!.at.toISOString();
  await expect.poll(async () => (await sources()).rates.find((r) => r.key === key)!.updated_at).toBe(wanted);
  for (let i = 0; i < 50; i += 1) {
    const res = await quote({ direction: 'USD_XAF', amount: '1' });
    if (res.statusCode === 200 || res.json().code === 'rate_stale') break;
  }
}

describe('a rate older than its maximum age', () => {
  it('36 hours + 1 minute old: quotes on it are refused with rate_stale (EN and FR), the admin sees it flagged; within 36 hours they are priced', async () => {
    await ageRate('USD_XAF', '36 hours 1 minute');
    await expect.poll(async () => (await quote({ direction: 'USD_XAF', amount: '100' })).statusCode).toBe(409);
    const refused = await quote({ direction: 'USD_XAF', amount: '100' });
    expect(refused.json()).toMatchObject({ code: 'rate_stale' });
    expect(refused.json().error).toBe('The USD→XAF rate is more than 36 hours old: prices are paused until it is refreshed. Try again later.');
    const fr = await quote({ direction: 'XAF_USD', amount: '100000' }, undefined, 'fr');
    expect(fr.json().error).toBe('Le taux USD→XAF date de plus de 36\u00a0heures\u00a0: les prix sont suspendus jusqu’à sa mise à jour. Réessayez plus tard.');
    // By payout too, signed in too; another rate still prices.
    expect((await quote({ direction: 'USD_XAF', payout: '60000' }, sender.token)).json().code).toBe('rate_stale');
    expect((await quote({ direction: 'USD_RWF', amount: '100' })).statusCode).toBe(200);
    const flagged = (await sources()).rates.find((r) => r.key === 'USD_XAF')!;
    expect(flagged.stale).toBe(true);

    // 36 hours old (less the few seconds the check takes): still fresh.
    await ageRate('USD_XAF', '35 hours 59 minutes 50 seconds');
    await expect.poll(async () => (await quote({ direction: 'USD_XAF', amount: '100' })).statusCode).toBe(200);
    expect((await sources()).rates.find((r) => r.key === 'USD_XAF')!.stale).toBe(false);
  });

  it('refreshed by the admin, quotes are priced again; EUR↔XAF, bound to the legal parity, never goes stale', async () => {
    await ageRate('USD_XAF', '3 days');
    await ageRate('EUR_XAF', '3 days');
    await expect.poll(async () => (await quote({ direction: 'USD_XAF', amount: '100' })).json().code).toBe('rate_stale');
    expect((await quote({ direction: 'EUR_XAF', amount: '100' })).statusCode).toBe(200);
    const edit = await t.request({ method: 'PATCH', url: '/api/rates/USD_XAF', token: admin.token, payload: { value: '610' } });
    expect(edit.statusCode).toBe(200);
    expect((await quote({ direction: 'USD_XAF', amount: '100' })).statusCode).toBe(200);
  });

  it('the admin sets the maximum age (audited); 48 hours lets a 40-hour-old rate price', async () => {
    await ageRate('USD_RWF', '40 hours');
    await expect.poll(async () => (await quote({ direction: 'USD_RWF', amount: '100' })).json().code).toBe('rate_stale');
    const bad = await t.request({ method: 'PUT', url: '/api/rates/max-age', token: admin.token, payload: { hours: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('hours');
    const set = await t.request({ method: 'PUT', url: '/api/rates/max-age', token: admin.token, payload: { hours: 48 } });
    expect(set.statusCode).toBe(200);
    expect(set.json().data.max_age_hours).toBe(48);
    expect((await quote({ direction: 'USD_RWF', amount: '100' })).statusCode).toBe(200);
    const { rows } = await t.database.pool.query(`select before, after from audit_log where action = 'rate.update' and target_id = 'rates.max_age_hours'`);
    expect(rows).toEqual([{ before: { max_age_hours: 36 }, after: { max_age_hours: 48 } }]);
    await t.request({ method: 'PUT', url: '/api/rates/max-age', token: admin.token, payload: { hours: 36 } });
    await t.request({ method: 'PATCH', url: '/api/rates/USD_RWF', token: admin.token, payload: { value: '1300' } });
  });
});

describe('references, sources and margins', () => {
  it('EUR↔XAF references the legal parity; an RWF rate entered by staff shows its reference and our margin, and quotes carry them', async () => {
    const edit = await t.request({ method: 'PATCH', url: '/api/rates/EUR_RWF', token: admin.token, payload: { value: '1400', reference: '1414.14' } });
    expect(edit.statusCode).toBe(200);
    const { rates } = await sources();
    expect(rates.find((r) => r.key === 'EUR_XAF')).toMatchObject({ ours: '655', reference: '655.957', source: 'parity', margin: '0.001459', stale: false });
    // 1 − 1400 ÷ 1414.14 = 0.009998…
    expect(rates.find((r) => r.key === 'EUR_RWF')).toMatchObject({ ours: '1400', reference: '1414.14', source: 'staff', margin: '0.009999', stale: false });
    expect(rates.find((r) => r.key === 'USD_RWF')).toMatchObject({ reference: '1300', margin: '0', source: 'staff' });
    const q = (await quote({ direction: 'EUR_RWF', amount: '100' })).json().data;
    expect(q).toMatchObject({ rate: '1400', reference_rate: '1414.14', margin: '0.009999' });
    const { rows } = await t.database.pool.query(`select after from audit_log where action = 'rate.update' and target_id = 'EUR_RWF'`);
    expect(rows.at(-1).after).toMatchObject({ value: '1400', reference: '1414.14', source: 'staff' });
  });

  it('only the admin reads the sources and sets the maximum age', async () => {
    const manager = await createUser(t, { role: 'manager' });
    for (const user of [sender, manager]) {
      expect((await t.request({ method: 'GET', url: '/api/rates/sources', token: user.token })).statusCode).toBe(403);
      expect((await t.request({ method: 'PUT', url: '/api/rates/max-age', token: user.token, payload: { hours: 10 } })).statusCode).toBe(403);
    }
  });
});

describe('an expired quote is renewed the way it was asked', () => {
  it('asked by what the recipient gets: the fresh quote gives that payout again', async () => {
    const asked = (await quote({ direction: 'USD_XAF', payout: '152500' }, sender.token)).json().data;
    expect(asked).toMatchObject({ amount: '250.00', payout: '152500' });
    await t.database.db.update(quotes).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(quotes.id, asked.id));
    // The rate moved meanwhile: the same payout now takes another amount.
    await t.request({ method: 'PATCH', url: '/api/rates/USD_XAF', token: admin.token, payload: { value: '620' } });
    const res = await t.request({ method: 'POST', url: '/api/payments/initiate', token: sender.token, payload: {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '250.00', currency: 'USD', quote_id: asked.id,
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+241 77 55 44 33' },
    } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('quote_expired');
    const fresh = res.json().quote;
    // 152,500 XAF at 620: 245.97 USD is the smallest amount giving at least that (152,501); 245.96 gives 152,495.
    expect(fresh).toMatchObject({ rate: '620', amount: '245.97', payout: '152501' });
    await t.request({ method: 'PATCH', url: '/api/rates/USD_XAF', token: admin.token, payload: { value: '610' } });
  });
});

describe('EUR→USD from the ECB\'s reference rates', () => {
  const upload = (xml: string, token = admin.token) => {
    const boundary = '----ecb';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="eurofxref-hist-90d.xml"\r\nContent-Type: text/xml\r\n\r\n`),
      Buffer.from(xml), Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.request({ method: 'POST', url: '/api/rates/ecb', token, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  };

  it('an uploaded file of several days: the latest day\'s USD per EUR becomes the reference, ours keeps its margin; audited; a file of another kind is refused', async () => {
    expect((await upload(ECB_THREE_DAYS, sender.token)).statusCode).toBe(403);
    const res = await upload(ECB_THREE_DAYS);
    expect(res.statusCode).toBe(200);
    // No reference before: ours was its own (margin 0), and stays so at the ECB's rate.
    expect(res.json().data.rates.find((r: { key: string }) => r.key === 'EUR_USD')).toMatchObject({ ours: '1.0512', reference: '1.0512', source: 'ecb', margin: '0', stale: false });
    const { rows } = await t.database.pool.query(`select after from audit_log where action = 'rate.update' and target_id = 'EUR_USD' order by id desc limit 1`);
    expect(rows[0].after).toMatchObject({ source: 'ecb', ecb_day: '2026-11-25' });

    // The admin takes a margin: ours 1.04 against 1.0512 (1.0654 %).
    await t.request({ method: 'PATCH', url: '/api/rates/EUR_USD', token: admin.token, payload: { value: '1.04' } });
    const next = await upload(ecbRatesFile([{ day: '2026-11-26', rates: { USD: '1.0600', JPY: '161.02' } }, { day: '2026-11-25', rates: { USD: '1.0512' } }]));
    // 1.06 × 1.04 ÷ 1.0512 = 1.0487062405 (10 decimals): the same margin on the new reference.
    expect(next.json().data.rates.find((r: { key: string }) => r.key === 'EUR_USD')).toMatchObject({ ours: '1.0487062405', reference: '1.06', margin: '0.010654' });
    expect((await quote({ direction: 'EUR_USD', amount: '100' })).json().data).toMatchObject({ reference_rate: '1.06', margin: '0.010654' });

    const refused = await upload('<html><body>Not the ECB</body></html>');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'ecb_file_invalid' });
    await t.request({ method: 'PATCH', url: '/api/rates/EUR_USD', token: admin.token, payload: { value: '1.08' } });
  });

  it('fetched from ECB_RATES_URL as a job: a real HTTP server on loopback serving the file; one over 2 MB is refused unread or as soon as it passes 2 MB', async () => {
    let asked = 0;
    // What the server sends: the file, 8 MB said by its Content-Length, or 8 MB sent in chunks
    // without a length (`finished`: whether all of it was taken).
    let serving: 'file' | 'long' | 'chunked' = 'file';
    let finished: boolean | null;
    const server = createServer((req, res) => {
      asked += 1;
      if (req.url !== '/stats/eurofxref/eurofxref-daily.xml') { res.writeHead(404).end(); return; }
      if (serving === 'file') { res.writeHead(200, { 'content-type': 'text/xml' }).end(ecbRatesFile([{ day: '2026-11-26', rates: { USD: '1.0733', JPY: '161.40' } }])); return; }
      const piece = Buffer.from("<Cube time='2026-11-26'><Cube currency='USD' rate='1.0733'/></Cube>\n".repeat(1000));
      const pieces = Math.ceil(8 * 1_048_576 / piece.length);
      // An ECB file's start, then its days (never ended): read until it passes 2 MB.
      const head = Buffer.from(ecbRatesFile([]).split('\t</Cube>')[0]!);
      res.writeHead(200, { 'content-type': 'text/xml', ...(serving === 'long' ? { 'content-length': String(head.length + pieces * piece.length) } : {}) });
      res.write(head);
      finished = false;
      res.on('finish', () => { finished = true; });
      let sent = 0;
      const more = () => {
        while (sent < pieces && !res.destroyed) {
          sent += 1;
          if (!res.write(piece)) { res.once('drain', more); return; }
        }
        if (sent === pieces) res.end();
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stats/eurofxref/eurofxref-daily.xml`;
    const fetching = await createTestApp({ env: { ECB_RATES_URL: url } });
    try {
      await fetching.database.pool.query(`select graphile_worker.add_job('ecb_rates', '{}'::json)`);
      await fetching.jobsDone();
      expect(asked).toBe(1);
      const { rows } = await fetching.database.pool.query(`select value::text, reference::text, source, updated_at > now() - interval '1 minute' as fresh from rates where key = 'EUR_USD'`);
      expect(rows[0]).toEqual({ value: '1.0733000000', reference: '1.0733000000', source: 'ecb', fresh: true });
      const q = await fetching.request({ method: 'POST', url: '/api/quotes', payload: { direction: 'EUR_USD', amount: '100' }, remoteAddress: uniqueAddress() });
      expect(q.json().data).toMatchObject({ rate: '1.0733', reference_rate: '1.0733' });

      for (const kind of ['long', 'chunked'] as const) {
        serving = kind;
        finished = null;
        await fetching.database.pool.query(`update rates set reference = 1.07, value = 1.07 where key = 'EUR_USD'`);
        const { rows: [job] } = await fetching.database.pool.query(`select (graphile_worker.add_job('ecb_rates', '{}'::json, max_attempts := 1)).id`);
        await fetching.jobsDone();
        const { rows: [failed] } = await fetching.database.pool.query('select last_error from graphile_worker.jobs where id = $1', [job.id]);
        expect(failed.last_error, kind).toMatch(/ECB rates: file too large/);
        // Refused unread (its length said too much), or the download stopped past 2 MB.
        expect(finished, kind).toBe(false);
        const { rows: [rate] } = await fetching.database.pool.query(`select value::text, reference::text from rates where key = 'EUR_USD'`);
        expect(rate, kind).toEqual({ value: '1.0700000000', reference: '1.0700000000' });
      }
    } finally {
      await fetching.close();
      server.close();
    }
  });
});

describe('an initiation without a quote on a stale rate', () => {
  it('is refused with rate_stale; with a quote given before, it keeps its price', async () => {
    const body = (extra: Record<string, unknown> = {}) => ({
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+241 77 66 55 44' }, ...extra,
    });
    const promised = (await quote({ direction: 'USD_XAF', amount: '100' }, sender.token)).json().data;
    await ageRate('USD_XAF', '36 hours 1 minute');
    await expect.poll(async () => (await quote({ direction: 'USD_XAF', amount: '100' })).json().code).toBe('rate_stale');
    const refused = await t.request({ method: 'POST', url: '/api/payments/initiate', token: sender.token, payload: body() });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('rate_stale');
    const kept = await t.request({ method: 'POST', url: '/api/payments/initiate', token: sender.token, payload: body({ quote_id: promised.id }) });
    expect(kept.statusCode).toBe(201);
    await t.request({ method: 'PATCH', url: '/api/rates/USD_XAF', token: admin.token, payload: { value: '610' } });
  });
});

describe('a rate from a weak currency to a strong one', () => {
  it('XAF → EUR, RWF → EUR and RWF → USD: the quote and the transfer keep 20 decimals, so turned round they read exactly the stored rate charged', async () => {
    const set = (key: string, value: string) => t.request({ method: 'PATCH', url: `/api/rates/${key}`, token: admin.token, payload: { value } });
    const shown = (q: { currency: string; payout_currency: string; rate: string; reference_rate?: string; margin?: string }) =>
      rateFigure(readableRate({ reference_rate: q.rate, margin: '0', ...q } as QuotedRate)!.ours, 'en');
    const before = (await t.request({ method: 'GET', url: '/api/rates' })).json().data;
    try {
      for (const [key, value] of [['EUR_XAF', '655.957'], ['EUR_RWF', '1523.455'], ['USD_RWF', '1299.995']] as const) {
        expect((await set(key, value)).statusCode).toBe(200);
      }
      const xaf = (await quote({ direction: 'XAF_EUR', amount: '100000' }, sender.token)).json().data;
      // 6 decimals (0.001524) read 1 EUR = 656.17 XAF; 1 ÷ 655.957 with 20 decimals reads the parity.
      expect(xaf).toMatchObject({ rate: '0.00152449017237410379', payout: '152.45', reference_rate: '0.00152449017237410379', margin: '0' });
      expect(shown(xaf)).toBe('655.96');
      const rwfEur = (await quote({ direction: 'RWF_EUR', amount: '100000' })).json().data;
      expect(rwfEur.rate).toBe('0.00065640271619443961');
      expect(shown(rwfEur)).toBe('1,523.46');
      const rwfUsd = (await quote({ direction: 'RWF_USD', amount: '100000' })).json().data;
      expect(shown(rwfUsd)).toBe('1,300');

      // The transfer made with the XAF → EUR quote keeps its 20 decimals: its answer, its row and the sender's list.
      const made = await t.request({ method: 'POST', url: '/api/payments/initiate', token: sender.token, payload: {
        source_provider: 'airtel_gabon', destination_provider: 'paypal_eur', amount: '100000', currency: 'XAF', quote_id: xaf.id,
        destination_details: { recipient_name: 'Awa Mboumba', recipient_email: 'awa@example.test' },
      } });
      expect(made.statusCode).toBe(201);
      expect(made.json().data).toMatchObject({ rate: xaf.rate, payout_amount: '152.45', quote_id: xaf.id });
      const { rows } = await t.database.pool.query(`select rate::text from transfer_requests where id = $1`, [made.json().data.id]);
      expect(rows[0].rate).toBe('0.00152449017237410379');
      const listed = (await t.request({ method: 'GET', url: '/api/transactions', token: sender.token })).json().data
        .find((x: { transfer_request_id: string }) => x.transfer_request_id === made.json().data.id);
      expect(shown({ ...listed, currency: 'XAF' })).toBe('655.96');
    } finally {
      for (const key of ['EUR_XAF', 'EUR_RWF', 'USD_RWF'] as const) await set(key, before[key]);
    }
  });
});
