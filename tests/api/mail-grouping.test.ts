import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// A sender's e-mails about their transfer: steps staff do together (payment recorded, processing,
// paid out, completed) reach the sender as one e-mail listing them, once the grouping window
// has passed with no further step; in the language of the sender's profile, whatever language
// the staff member's screen is in. Checked over real SMTP after the job queue has drained.

let t: TestApp;
let smtp: SmtpListener;
let manager: TestUser;
beforeAll(async () => {
  smtp = await new SmtpListener().start();
  // The window as deployed (60 s); t.jobsDone() lets it pass.
  t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  manager = await createUser(t, { role: 'manager', language: 'fr' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

/** A staff request made from a screen in `screen`'s language (its cookie and its browser's header). */
const staff = (screen: 'en' | 'fr', method: 'POST' | 'PATCH', url: string, payload: object) =>
  t.request({ method, url, token: manager.token, payload, headers: { 'accept-language': screen, cookie: `lang=${screen}` } });

async function payAndDeliver(id: string, screen: 'en' | 'fr') {
  expect((await staff(screen, 'POST', `/api/transfer-requests/${id}/payment`, { amount: '104.50', reference: 'STMT-9' })).statusCode).toBe(200);
  expect((await staff(screen, 'PATCH', `/api/transfer-requests/${id}`, { status: 'processing' })).statusCode).toBe(200);
  expect((await staff(screen, 'POST', `/api/transfer-requests/${id}/payout`, { reference: 'AIRTEL-55' })).statusCode).toBe(200);
  expect((await staff(screen, 'PATCH', `/api/transfer-requests/${id}`, { status: 'completed' })).statusCode).toBe(200);
}

/** The mails to `email` about `reference`, read back as UTF-8 (the listener keeps quoted-printable bytes one character each). */
const mailsAbout = (email: string, reference: string) => smtp.messages
  .filter((m) => m.to.includes(email) && m.raw.includes(reference))
  .map((m) => ({ ...m, raw: Buffer.from(m.raw, 'latin1').toString('utf8') }));

describe('e-mails about a transfer', () => {
  it('four steps done within a minute reach the sender as one e-mail listing them, in French for a French profile though the staff screen is English', async () => {
    const sender = await createUser(t, { language: 'fr', full_name: 'Awa Nguema' });
    const transfer = await createTransfer(t, sender.id, { status: 'pending' });
    await payAndDeliver(transfer.id, 'en');
    // Nothing is sent while the window is open.
    expect(mailsAbout(sender.email, transfer.reference)).toHaveLength(0);
    await t.jobsDone(30_000);
    const mails = mailsAbout(sender.email, transfer.reference);
    expect(mails).toHaveLength(1);
    const raw = mails[0]!.raw;
    expect(raw).toContain(`Voici ce qui s’est passé pour votre transfert ${transfer.reference}\u00a0:`);
    expect(raw).toContain(`• Nous avons reçu votre paiement de 104,50\u00a0$US pour le transfert ${transfer.reference}.`);
    expect(raw).toContain(`• Votre transfert ${transfer.reference} est maintenant\u00a0: En cours.`);
    expect(raw).toContain('Référence du versement\u00a0: AIRTEL-55.');
    expect(raw).toContain(`• Votre transfert ${transfer.reference} est maintenant\u00a0: Terminé.`);
    expect(raw).toContain('Bonjour Awa Nguema,');
    expect(raw).not.toMatch(/Payment received|Hello /);
  });

  it('an English profile gets English though the staff screen is French', async () => {
    const sender = await createUser(t, { language: 'en', full_name: 'John Doe' });
    const transfer = await createTransfer(t, sender.id, { status: 'pending' });
    await payAndDeliver(transfer.id, 'fr');
    await t.jobsDone(30_000);
    const mails = mailsAbout(sender.email, transfer.reference);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toContain(`Here is what happened to your transfer ${transfer.reference}:`);
    expect(mails[0]!.raw).toContain(`• We received your payment of $104.50 for transfer ${transfer.reference}.`);
    expect(mails[0]!.raw).not.toMatch(/Bonjour|Nous avons reçu/);
  });

  it('a step after the window has passed is its own e-mail, written as a single step', async () => {
    const sender = await createUser(t, { language: 'en' });
    const transfer = await createTransfer(t, sender.id, { status: 'pending' });
    expect((await staff('en', 'POST', `/api/transfer-requests/${transfer.id}/payment`, { amount: '104.50', reference: 'STMT-10' })).statusCode).toBe(200);
    await t.jobsDone(30_000);
    expect((await staff('en', 'PATCH', `/api/transfer-requests/${transfer.id}`, { status: 'processing' })).statusCode).toBe(200);
    await t.jobsDone(30_000);
    const mails = mailsAbout(sender.email, transfer.reference);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.raw).toContain(`Subject: Payment received for transfer ${transfer.reference}`);
    expect(mails[1]!.raw).toMatch(new RegExp(`Subject: Transfer ${transfer.reference}: Processing`));
    expect(mails.some((m) => m.raw.includes('Here is what happened'))).toBe(false);
  });

  it('a step made while its e-mail is being sent waits in an e-mail of its own, and the one being sent keeps its retries: a failed send still reaches the sender', async () => {
    const sender = await createUser(t, { language: 'en' });
    const transfer = await createTransfer(t, sender.id, { status: 'pending' });
    expect((await staff('en', 'POST', `/api/transfer-requests/${transfer.id}/payment`, { amount: '104.50', reference: 'STMT-11' })).statusCode).toBe(200);
    // A worker takes the e-mail (as graphile-worker's get_job does) and is sending it.
    const key = `transfer_mail:${transfer.id}`;
    const taken = await t.database.pool.query(`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'a-worker', attempts = attempts + 1
      where key = $1 returning id`, [key]);
    expect(taken.rows).toHaveLength(1);
    expect((await staff('en', 'PATCH', `/api/transfer-requests/${transfer.id}`, { status: 'processing' })).statusCode).toBe(200);

    const { rows } = await t.database.pool.query<{ id: string; key: string | null; attempts: number; max_attempts: number; steps: string[] }>(`select id::text, key, attempts, max_attempts,
        array(select s->>'event' from json_array_elements(payload->'steps') s) as steps
      from graphile_worker._private_jobs where payload->>'transfer_id' = $1 and payload->'steps' is not null order by id`, [transfer.id]);
    expect(rows).toEqual([
      expect.objectContaining({ id: String(taken.rows[0].id), steps: ['paid'], attempts: 1, max_attempts: expect.toSatisfy((n: number) => n > 1) }),
      expect.objectContaining({ key, steps: ['status'], attempts: 0 }),
    ]);
    // Its send fails: graphile-worker lets it go to be tried again; both e-mails then reach the sender.
    await t.database.pool.query('update graphile_worker._private_jobs set locked_at = null, locked_by = null, run_at = now() where id = $1', [taken.rows[0].id]);
    await t.jobsDone(30_000);
    const mails = mailsAbout(sender.email, transfer.reference);
    expect(mails.map((m) => /Subject: (.*)/.exec(m.raw)![1]).sort()).toEqual([`Payment received for transfer ${transfer.reference}`, `Transfer ${transfer.reference}: Processing`]);
  });

  it('an internal note sends nothing; a note to the sender joins the steps around it', async () => {
    const sender = await createUser(t, { language: 'en' });
    const transfer = await createTransfer(t, sender.id, { status: 'pending' });
    expect((await staff('en', 'POST', `/api/transfer-requests/${transfer.id}/notes`, { body: 'Checked the bank line by hand', visibility: 'internal' })).statusCode).toBe(201);
    expect((await staff('en', 'POST', `/api/transfer-requests/${transfer.id}/payment`, { amount: '104.50', reference: 'STMT-11' })).statusCode).toBe(200);
    expect((await staff('en', 'POST', `/api/transfer-requests/${transfer.id}/notes`, { body: 'Your payment arrived, thank you.', visibility: 'sender' })).statusCode).toBe(201);
    await t.jobsDone(30_000);
    const mails = mailsAbout(sender.email, transfer.reference);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toContain('Message from our team: Your payment arrived, thank you.');
    expect(mails[0]!.raw).not.toContain('Checked the bank line by hand');
  });
});
