import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '@server/db/schema.js';
import { eq } from 'drizzle-orm';
import { createUser, type TestUser } from '../support/factories.js';
import type { SmtpListener } from '../support/smtp-listener.js';
import { createMailedTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// The transfer's thread (docs/rules/back-office.md#notes-and-action-needed): internal notes among staff, messages to the sender (which may ask
// for an action), and the sender's answers. The sender's views never carry an internal note.

let t: TestApp;
let smtp: SmtpListener;
let sender: TestUser;
let other: TestUser;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  ({ t, smtp } = await createMailedTestApp());
  [sender, other, manager, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { full_name: 'Other Sender' }),
    createUser(t, { role: 'manager', full_name: 'Mia Manager' }), createUser(t, { role: 'admin', full_name: 'Ada Admin' }),
  ]);
});
afterAll(async () => { await t.close(); });

const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}) });
const note = (token: string, id: string, payload: object) => call(token, 'POST', `/api/transfer-requests/${id}/notes`, payload);
const message = (token: string, id: string, body: string) => call(token, 'POST', `/api/transfer-requests/${id}/messages`, { body });
const detail = async (token: string, id: string) => (await call(token, 'GET', `/api/transfer-requests/${id}`)).json().data;

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d4944415408d763f8ffffff7f0009fb03fdd1838cf00000000049454e44ae426082', 'hex');
function uploadProof(token: string, id: string) {
  const boundary = '----notes-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="again.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.request({ method: 'POST', url: `/api/transfer-requests/${id}/proof`, token, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

describe('notes', () => {
  it('are checked: a body of 1 to 2,000 characters, trimmed; a visibility; an action only for the sender', async () => {
    const transfer = await createTransfer(t, sender.id);
    for (const [payload, field] of [
      [{ body: '   ', visibility: 'internal' }, 'body'],
      [{ body: 'x'.repeat(2001), visibility: 'sender' }, 'body'],
      [{ visibility: 'sender' }, 'body'],
      [{ body: 'hello', visibility: 'everyone' }, 'visibility'],
      [{ body: 'hello', visibility: 'internal', action_needed: true }, 'action_needed'],
    ] as const) {
      const res = await note(manager.token, transfer.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json().fields ?? {})).toContain(field);
    }
    expect((await detail(manager.token, transfer.id)).notes).toEqual([]);

    const ok = await note(manager.token, transfer.id, { body: `  ${'y'.repeat(2000)}  `, visibility: 'internal' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data).toMatchObject({
      body: 'y'.repeat(2000), visibility: 'internal', action_needed: false, author_role: 'manager',
      author: { profile_id: manager.id, full_name: 'Mia Manager', role: 'manager' },
    });
    expect((await note(sender.token, transfer.id, { body: 'hi', visibility: 'sender' })).statusCode).toBe(403);
    expect((await note(manager.token, '00000000-0000-4000-8000-000000000000', { body: 'hi', visibility: 'sender' })).statusCode).toBe(404);
  });

  it('staff see the whole thread oldest first, with authors; the sender sees only what is addressed to them', async () => {
    const transfer = await createTransfer(t, sender.id);
    await note(manager.token, transfer.id, { body: 'Checked the statement, looks fine', visibility: 'internal' });
    await note(admin.token, transfer.id, { body: 'Your payment is on its way to us', visibility: 'sender' });
    await message(sender.token, transfer.id, 'Thank you!');

    const staff = await detail(manager.token, transfer.id);
    expect(staff.notes.map((n: { body: string; visibility: string; author_role: string }) => [n.author_role, n.visibility, n.body])).toEqual([
      ['manager', 'internal', 'Checked the statement, looks fine'],
      ['admin', 'sender', 'Your payment is on its way to us'],
      ['owner', 'sender', 'Thank you!'],
    ]);
    expect(staff.notes[2].author).toMatchObject({ profile_id: sender.id, full_name: 'Awa Sender' });

    const own = await detail(sender.token, transfer.id);
    expect(own.messages.map((m: { from: string; body: string }) => [m.from, m.body])).toEqual([
      ['staff', 'Your payment is on its way to us'], ['sender', 'Thank you!'],
    ]);
    expect(JSON.stringify(own)).not.toContain('Ada Admin');
    expect(own.notes).toBeUndefined();
  });
});

describe('messages from the sender', () => {
  it('are the owner\'s alone: another sender gets 404, staff too; the body is checked', async () => {
    const transfer = await createTransfer(t, sender.id);
    expect((await message(other.token, transfer.id, 'not mine')).statusCode).toBe(404);
    expect((await message(manager.token, transfer.id, 'staff use notes')).statusCode).toBe(404);
    expect((await message(sender.token, '00000000-0000-4000-8000-000000000000', 'nothing')).statusCode).toBe(404);
    expect((await message(sender.token, transfer.id, ' ')).statusCode).toBe(400);
    expect((await message(sender.token, transfer.id, 'z'.repeat(2001))).statusCode).toBe(400);
    const ok = await message(sender.token, transfer.id, '  Here is my answer  ');
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data).toMatchObject({ from: 'sender', body: 'Here is my answer', action_needed: false });
    expect((await detail(manager.token, transfer.id)).notes).toHaveLength(1);
  });
});

describe('action needed', () => {
  it('is set by a message to the sender that asks, shown with the message, and cleared by their reply', async () => {
    const transfer = await createTransfer(t, sender.id);
    const asked = await note(manager.token, transfer.id, { body: 'The proof is unreadable, please upload it again', visibility: 'sender', action_needed: true });
    expect(asked.statusCode, asked.body).toBe(201);

    for (const seen of [await detail(sender.token, transfer.id), await detail(manager.token, transfer.id)]) {
      expect(seen).toMatchObject({ action_needed: true, action_message: 'The proof is unreadable, please upload it again' });
    }
    const list = (await call(sender.token, 'GET', '/api/transfer-requests')).json().data;
    expect(list.find((r: { id: string }) => r.id === transfer.id)).toMatchObject({ action_needed: true, action_message: 'The proof is unreadable, please upload it again' });
    const history = (await call(sender.token, 'GET', '/api/transactions')).json().data;
    expect(history.find((r: { transfer_request_id: string }) => r.transfer_request_id === transfer.id)).toMatchObject({ action_needed: true });
    const queue = (await call(manager.token, 'GET', '/api/transfer-requests?action_needed=true&limit=100')).json().data;
    expect(queue.map((r: { id: string }) => r.id)).toContain(transfer.id);
    expect(queue.every((r: { action_needed: boolean }) => r.action_needed)).toBe(true);

    expect((await message(sender.token, transfer.id, 'Done, sent it again')).statusCode).toBe(201);
    expect(await detail(sender.token, transfer.id)).toMatchObject({ action_needed: false, action_message: null });
    const after = (await call(manager.token, 'GET', '/api/transfer-requests?action_needed=true&limit=100')).json().data;
    expect(after.map((r: { id: string }) => r.id)).not.toContain(transfer.id);
  });

  it('is cleared by a new proof of payment', async () => {
    const transfer = await createTransfer(t, sender.id);
    await note(manager.token, transfer.id, { body: 'Please upload a clearer proof', visibility: 'sender', action_needed: true });
    expect((await detail(sender.token, transfer.id)).action_needed).toBe(true);
    const upload = await uploadProof(sender.token, transfer.id);
    expect(upload.statusCode, upload.body).toBe(201);
    expect(await detail(sender.token, transfer.id)).toMatchObject({ action_needed: false, action_message: null });
  });

  it('shows the latest request while several are open, and ends when the transfer closes', async () => {
    const transfer = await createTransfer(t, sender.id);
    await note(manager.token, transfer.id, { body: 'First ask', visibility: 'sender', action_needed: true });
    await note(manager.token, transfer.id, { body: 'An internal remark', visibility: 'internal' });
    await note(admin.token, transfer.id, { body: 'Second ask', visibility: 'sender', action_needed: true });
    expect((await detail(sender.token, transfer.id)).action_message).toBe('Second ask');
    expect((await call(manager.token, 'PATCH', `/api/transfer-requests/${transfer.id}`, { status: 'rejected', note: 'No payment arrived' })).statusCode).toBe(200);
    expect(await detail(sender.token, transfer.id)).toMatchObject({ status: 'rejected', action_needed: false, action_message: null });
  });

  it('cannot be asked of a closed transfer (the sender could not answer it); a plain message still goes', async () => {
    const closed = await createTransfer(t, sender.id, { status: 'completed', paid: true, paidOut: true });
    const asked = await note(manager.token, closed.id, { body: 'Please upload again', visibility: 'sender', action_needed: true });
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({ code: 'action_on_closed', error: expect.stringContaining('closed') });
    expect(await detail(sender.token, closed.id)).toMatchObject({ action_needed: false, messages: [] });
    expect((await note(manager.token, closed.id, { body: 'Thank you for using us', visibility: 'sender' })).statusCode).toBe(201);
  });
});

describe('an internal note', () => {
  it('appears in no answer a sender can get about their transfer', async () => {
    const marker = `INTERNAL-${randomBytes(6).toString('hex')}`;
    const created = await call(sender.token, 'POST', '/api/payments/initiate', {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '120', currency: 'USD',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    const idempotent = { 'idempotency-key': `notes-${marker}` };
    const first = await t.request({ method: 'POST', url: '/api/payments/initiate', token: sender.token, headers: idempotent, payload: {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '130', currency: 'USD',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
    } });
    const replayedId = first.json().data.id as string;
    for (const target of [id, replayedId]) {
      expect((await note(manager.token, target, { body: `${marker} sender looks suspicious`, visibility: 'internal' })).statusCode).toBe(201);
      // A request to the sender too, so the action message is there to be looked at.
      await note(manager.token, target, { body: 'Please upload your proof again', visibility: 'sender', action_needed: true });
    }
    const tracking = (await detail(sender.token, id)).tracking_url as string;
    const token = tracking.slice(tracking.lastIndexOf('/') + 1);

    const bodies: [string, string][] = [];
    const read = async (label: string, res: { statusCode: number; body: string }) => {
      expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(300);
      bodies.push([label, res.body]);
    };
    await read('list', await call(sender.token, 'GET', '/api/transfer-requests'));
    await read('open list', await call(sender.token, 'GET', '/api/transfer-requests?open=true'));
    await read('detail', await call(sender.token, 'GET', `/api/transfer-requests/${id}`));
    await read('transactions', await call(sender.token, 'GET', '/api/transactions'));
    await read('dashboard transactions', await call(sender.token, 'GET', '/api/transactions?open=true&limit=5'));
    await read('summary', await call(sender.token, 'GET', '/api/transactions/summary'));
    await read('profile', await call(sender.token, 'GET', '/api/profiles/me'));
    await read('tracking page', await t.request({ method: 'GET', url: `/api/track/${token}` }));
    await read('new tracking link', await call(sender.token, 'POST', `/api/transfer-requests/${id}/tracking`));
    await read('idempotent replay', await t.request({ method: 'POST', url: '/api/payments/initiate', token: sender.token, headers: idempotent, payload: {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '130', currency: 'USD',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
    } }));
    await read('proof upload', await uploadProof(sender.token, id));
    await read('reply', await message(sender.token, id, 'Uploaded it'));
    await read('detail after reply', await call(sender.token, 'GET', `/api/transfer-requests/${id}`));
    await read('cancel', await call(sender.token, 'POST', `/api/transfer-requests/${id}/cancel`));
    await read('detail after cancel', await call(sender.token, 'GET', `/api/transfer-requests/${id}`));

    for (const [label, body] of bodies) expect(body, label).not.toContain(marker);
    // The replayed answer shows what staff asked, not the internal note.
    expect(JSON.parse(bodies.find(([label]) => label === 'idempotent replay')![1]).data).toMatchObject({ action_needed: true, action_message: 'Please upload your proof again' });
    // Nor in any e-mail the sender got.
    await t.jobsDone();
    await smtp.waitFor(sender.email, /Please upload your proof again/);
    const mails = smtp.messages.filter((m) => m.to.includes(sender.email.toLowerCase()));
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) expect(mail.raw).not.toContain(marker);
    // Staff do see it.
    expect(JSON.stringify(await detail(manager.token, id))).toContain(marker);
  });
});

describe('e-mails to the sender', () => {
  it('a message to the sender is e-mailed in their language; one that asks says what and links to the transfer', async () => {
    const transfer = await createTransfer(t, sender.id);
    await note(manager.token, transfer.id, { body: 'We received your proof, thank you', visibility: 'sender' });
    await t.jobsDone();
    const plain = await smtp.waitFor(sender.email, /We received your proof, thank you/);
    expect(plain.raw).toContain(`A message about your transfer ${transfer.reference}`);

    await note(manager.token, transfer.id, { body: 'The screenshot is cut, please send the whole page', visibility: 'sender', action_needed: true });
    await t.jobsDone();
    const asked = await smtp.waitFor(sender.email, /please send the whole page/);
    expect(asked.raw).toContain(`Action needed on your transfer ${transfer.reference}`);
    expect(asked.raw).toContain(`http://localhost:3000/pay/${transfer.id}`);
    expect(asked.raw).toContain(`<a href="http://localhost:3000/pay/${transfer.id}">`);

    // In French for a French sender.
    await t.database.db.update(profiles).set({ language: 'fr' }).where(eq(profiles.id, other.id));
    const theirs = await createTransfer(t, other.id);
    await note(admin.token, theirs.id, { body: 'Merci de renvoyer la preuve', visibility: 'sender', action_needed: true });
    await t.jobsDone();
    const fr = await smtp.waitFor(other.email, /Merci de renvoyer la preuve/);
    expect(fr.raw).toContain('Action requise sur votre transfert');
    expect(fr.raw).toContain('Message de notre'); // (the listener shows UTF-8 bytes one by one: no accents here)
  });

  it('status e-mails carry the note to the sender, the payout reference when completed, the refund state when rejected', async () => {
    const paid = await createTransfer(t, sender.id, { paid: true });
    await note(manager.token, paid.id, { body: 'SECRET-STAFF-REMARK', visibility: 'internal' });
    await call(manager.token, 'PATCH', `/api/transfer-requests/${paid.id}`, { status: 'processing', note: 'We are sending it now' });
    await t.jobsDone();
    const processing = await smtp.waitFor(sender.email, /We are sending it now/);
    expect(processing.raw).toContain('Message from our team: We are sending it now');
    await call(manager.token, 'POST', `/api/transfer-requests/${paid.id}/payout`, { reference: 'AIRTEL-PAYOUT-77' });
    await call(manager.token, 'PATCH', `/api/transfer-requests/${paid.id}`, { status: 'completed' });
    await t.jobsDone();
    // Paid out and completed together: one e-mail telling both, as the grouping window gathers them.
    const completed = await smtp.waitFor(sender.email, new RegExp(`Updates on your transfer ${paid.reference}`));
    expect(completed.raw).toContain(`The status of your transfer ${paid.reference} is now: Completed.`);
    expect(completed.raw).toContain('Payout reference: AIRTEL-PAYOUT-77.');

    // Rejected after the money arrived: it will be refunded; before any money: nothing is owed.
    const received = await createTransfer(t, sender.id, { paid: true });
    await call(manager.token, 'PATCH', `/api/transfer-requests/${received.id}`, { status: 'rejected', note: 'The recipient number is closed' });
    await t.jobsDone();
    const refundDue = await smtp.waitFor(sender.email, new RegExp(`Transfer ${received.reference}: Rejected`));
    expect(refundDue.raw).toContain('Message from our team: The recipient number is closed');
    expect(refundDue.raw).toContain('it will be refunded within 5-7 business days');

    const unpaid = await createTransfer(t, sender.id);
    await call(manager.token, 'PATCH', `/api/transfer-requests/${unpaid.id}`, { status: 'rejected', note: 'No payment arrived' });
    await t.jobsDone();
    const nothing = await smtp.waitFor(sender.email, new RegExp(`Transfer ${unpaid.reference}: Rejected`));
    expect(nothing.raw).toContain('nothing is owed to you');

    await t.jobsDone();
    const mails = smtp.messages.filter((m) => m.to.includes(sender.email.toLowerCase()));
    for (const mail of mails) expect(mail.raw).not.toContain('SECRET-STAFF-REMARK');
  });
});
