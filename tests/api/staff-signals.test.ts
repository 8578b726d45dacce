import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// What the staff queue and the audit log say beyond the transfer itself:
// a proof arrived, the sender replied last; an audited object named as people name it.

let t: TestApp;
let sender: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, admin] = await Promise.all([createUser(t, { full_name: 'Awa Ndong' }), createUser(t, { role: 'admin', full_name: 'Ada Admin' })]);
});
afterAll(async () => { await t.close(); });

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d4944415408d763f8ffffff7f0009fb03fdd1838cf00000000049454e44ae426082', 'hex');

function uploadProof(id: string) {
  const boundary = '----signals-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="receipt.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.request({ method: 'POST', url: `/api/transfer-requests/${id}/proof`, token: sender.token, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

const staffRow = async (id: string) => {
  const res = await t.request({ method: 'GET', url: '/api/transfer-requests?limit=100', token: admin.token });
  expect(res.statusCode).toBe(200);
  return (res.json().data as { id: string; has_proof: boolean; sender_replied: boolean }[]).find((r) => r.id === id)!;
};

describe('the staff queue says what came from the sender', () => {
  it('a proof uploaded, and whether the sender had the last word', async () => {
    const transfer = await createTransfer(t, sender.id);
    expect(await staffRow(transfer.id)).toMatchObject({ has_proof: false, sender_replied: false });
    expect((await uploadProof(transfer.id)).statusCode).toBe(201);
    expect(await staffRow(transfer.id)).toMatchObject({ has_proof: true, sender_replied: false });

    const note = (visibility: string, body: string, action_needed = false) =>
      t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/notes`, token: admin.token, payload: { body, visibility, action_needed } });
    expect((await note('sender', 'Which bank did you pay from?', true)).statusCode).toBe(201);
    expect((await staffRow(transfer.id)).sender_replied).toBe(false);
    const answer = await t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/messages`, token: sender.token, payload: { body: 'From BGFI Bank.' } });
    expect(answer.statusCode).toBe(201);
    expect((await staffRow(transfer.id)).sender_replied).toBe(true);
    // Staff answering, even among themselves, means someone has read it.
    expect((await note('internal', 'BGFI line found.')).statusCode).toBe(201);
    expect((await staffRow(transfer.id)).sender_replied).toBe(false);
  });
});

describe('the audit log names what it is about', () => {
  it('a person by name and e-mail, a transfer and its proof by the reference', async () => {
    const newcomer = await createUser(t, { full_name: 'Nadia Mabika' });
    expect((await t.request({ method: 'PATCH', url: `/api/profiles/${newcomer.id}`, token: admin.token, payload: { role: 'manager' } })).statusCode).toBe(200);
    const transfer = await createTransfer(t, sender.id);
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/notes`, token: admin.token, payload: { body: 'Looked at it', visibility: 'internal' } })).statusCode).toBe(201);

    const log = async (q: string) => (await t.request({ method: 'GET', url: `/api/audit?${q}`, token: admin.token })).json().data as { target_id: string; target_label: string | null; before: unknown; after: unknown }[];
    const [role] = await log(`target_type=profile&target_id=${newcomer.id}`);
    expect(role).toMatchObject({ target_id: newcomer.id, target_label: `Nadia Mabika (${newcomer.email})`, before: { role: 'user' }, after: { role: 'manager' } });
    const [noted] = await log(`target_type=transfer&target_id=${transfer.id}`);
    expect(noted).toMatchObject({ target_id: transfer.id, target_label: transfer.reference });
    // A proof viewed by staff is named by its transfer's reference.
    expect((await uploadProof(transfer.id)).statusCode).toBe(201);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${transfer.id}/proof`, token: admin.token })).statusCode).toBe(200);
    const [viewed] = await log('target_type=proof');
    expect(viewed).toMatchObject({ target_label: transfer.reference });
  });
});
