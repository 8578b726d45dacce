// How long a megabyte amount ("1." and zeros up to the body limit, which once held the event loop
// for minutes) takes to be refused (tests/api/amount-bounds.test.ts checks that it is, on every
// endpoint that reads one, and that nothing changes): the public quote by amount and by payout,
// and a sender's initiation. Median and max of 5 each.
import { spread, startBenchServer, timed } from './bench-server.js';

const HUGE = `1.${'0'.repeat(990_000)}`;
const server = await startBenchServer();
try {
  const post = async (url: string, body: object, token?: string) => {
    const res = await fetch(`${server.url}${url}`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    await res.arrayBuffer();
    return res.status;
  };
  const signedIn = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(server.sender),
  }).then((res) => res.json() as Promise<{ token: string }>);
  const cases: [string, () => Promise<number>][] = [
    ['POST /api/quotes amount', () => post('/api/quotes', { direction: 'USD_XAF', amount: HUGE })],
    ['POST /api/quotes payout', () => post('/api/quotes', { direction: 'USD_XAF', payout: HUGE })],
    ['POST /api/payments/initiate amount', () => post('/api/payments/initiate', {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: HUGE, currency: 'USD',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+241 77 12 34 56' },
    }, signedIn.token)],
  ];
  for (const [name, run] of cases) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      let status = 0;
      times.push(await timed(async () => { status = await run(); }));
      if (status !== 400) throw new Error(`${name} answered ${status}, not 400`);
    }
    console.log(`${name}, 1 MB: refused (400) in ${spread(times)}`);
  }
} finally {
  await server.close();
}
