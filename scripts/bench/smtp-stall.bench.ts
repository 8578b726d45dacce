// What a stalled mail server costs the e-mails queued behind it (tests/api/smtp-stall.test.ts
// checks what happens; this prints how long it takes), with SMTP_TIMEOUT_MS at 1 s: from two
// sign-ups, one to an address the server stalls on after DATA, to the other's code arriving and
// to the stalled send failing on its timeout; then a server that greets and goes silent.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { registration } from '../../tests/api/auth-fixtures.js';
import { SmtpListener } from '../../tests/support/smtp-listener.js';
import { startBenchServer, type BenchServer } from './bench-server.js';

async function register(server: BenchServer, email: string): Promise<void> {
  const res = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250)}` },
    body: JSON.stringify(registration({ email })),
  });
  if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
}

/** Milliseconds from `since` until the mail job to `to` has failed on a timeout. */
async function failedAfter(server: BenchServer, to: string, since: number): Promise<number> {
  for (;;) {
    const { rows } = await server.database.pool.query<{ last_error: string | null }>(
      `select last_error from graphile_worker._private_jobs where payload->'message'->>'to' = $1`, [to]);
    if (/timeout/i.test(rows[0]?.last_error ?? '')) return performance.now() - since;
    if (performance.now() - since > 30_000) throw new Error(`no timeout recorded for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const smtp = await new SmtpListener().start();
const stalled = await startBenchServer({ SMTP_URL: smtp.url, SMTP_TIMEOUT_MS: '1000' });
try {
  smtp.stallMailTo('stuck@example.test');
  const queued = performance.now();
  await register(stalled, 'stuck@example.test');
  await register(stalled, 'other@example.test');
  await smtp.waitFor('other@example.test', /verification code/, 30_000);
  console.log(`stalled after DATA: the code queued behind arrives after ${(performance.now() - queued).toFixed(0)} ms`);
  console.log(`stalled after DATA: its own send fails on the 1 s timeout after ${(await failedAfter(stalled, 'stuck@example.test', queued)).toFixed(0)} ms`);
  smtp.resume();
} finally {
  await stalled.close();
  await smtp.stop();
}

// Says "220" as every mail server does first, then never answers again.
const sockets = new Set<net.Socket>();
const silent = net.createServer((s) => { sockets.add(s); s.on('error', () => {}); s.write('220 mail.example.test ESMTP\r\n'); });
await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
const greeted = await startBenchServer({ SMTP_URL: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, SMTP_TIMEOUT_MS: '1000' });
try {
  const queued = performance.now();
  await register(greeted, 'greeted@example.test');
  console.log(`greets and goes silent: the send fails on the 1 s timeout after ${(await failedAfter(greeted, 'greeted@example.test', queued)).toFixed(0)} ms`);
} finally {
  await greeted.close();
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
}
