import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { onePagePdf } from '../support/pdf-files.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let smtp: SmtpListener;
let alice: TestUser;
let bob: TestUser;
let manager: TestUser;

beforeAll(async () => {
  smtp = await new SmtpListener().start();
  t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  alice = await createUser(t, { full_name: 'Alice' });
  bob = await createUser(t, { full_name: 'Bob' });
  manager = await createUser(t, { role: 'manager' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

async function createTransfer(user: TestUser, amount = '100', recipient = 'Jean Ndong') {
  const res = await t.request({
    method: 'POST', url: '/api/payments/initiate', token: user.token,
    payload: {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount, currency: 'USD',
      destination_details: { recipient_name: recipient, recipient_phone: '+24177123456' },
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; reference: string };
}

// Minimal files by their real bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d4944415408d763f8ffffff7f0009fb03fdd1838cf00000000049454e44ae426082', 'hex');
const PDF = onePagePdf();

function multipart(filename: string, content: Buffer, type: string) {
  const boundary = '----proof-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    content, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function upload(user: TestUser, id: string, filename: string, content: Buffer, type = 'image/png') {
  return t.request({ method: 'POST', url: `/api/transfer-requests/${id}/proof`, token: user.token, ...multipart(filename, content, type) });
}

describe('lists: own, newest first, paged, filtered and searched in SQL', () => {
  let ids: string[] = [];
  beforeAll(async () => {
    ids = [];
    for (const amount of ['10', '20', '30', '40', '50']) ids.push((await createTransfer(alice, amount)).id);
    await createTransfer(bob, '77');
  });

  it('pages the sender’s transfer requests with a cursor, newest first, never another sender’s', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.request({ method: 'GET', url: `/api/transfer-requests?limit=2${cursor ? `&cursor=${cursor}` : ''}`, token: alice.token });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.data.length).toBeLessThanOrEqual(2);
      seen.push(...body.data.map((r: { id: string }) => r.id));
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('lists transactions with the request fields a receipt needs, filters by status and searches by amount, id or reference', async () => {
    const all = (await t.request({ method: 'GET', url: '/api/transactions', token: alice.token })).json();
    expect(all.data).toHaveLength(5);
    expect(all.data[0]).toMatchObject({ transfer_request_id: ids[4], amount: '50.00', currency: 'USD', fee: '3.00', total: '53.00', status: 'pending' });
    expect(all.data[0].metadata.recipient_name).toBe('Jean Ndong');
    // Amounts written with their decimals: a bare "30" may also start one of the random ids.
    const byAmount = (await t.request({ method: 'GET', url: '/api/transactions?q=30.00', token: alice.token })).json();
    expect(byAmount.data.map((x: { transfer_request_id: string }) => x.transfer_request_id)).toEqual([ids[2]]);
    const byId = (await t.request({ method: 'GET', url: `/api/transfer-requests?q=${ids[1]!.slice(0, 8)}`, token: alice.token })).json();
    expect(byId.data.map((x: { id: string }) => x.id)).toContain(ids[1]);
    const reference = all.data[3].reference as string;
    const byRef = (await t.request({ method: 'GET', url: `/api/transactions?q=${reference.toLowerCase()}`, token: alice.token })).json();
    expect(byRef.data).toHaveLength(1);
    const bobsAmount = (await t.request({ method: 'GET', url: '/api/transactions?q=77.00', token: alice.token })).json();
    expect(bobsAmount.data).toEqual([]);

    await t.request({ method: 'POST', url: `/api/transfer-requests/${ids[0]}/cancel`, token: alice.token });
    const cancelled = (await t.request({ method: 'GET', url: '/api/transactions?status=cancelled', token: alice.token })).json();
    expect(cancelled.data.map((x: { transfer_request_id: string }) => x.transfer_request_id)).toEqual([ids[0]]);
    const summary = (await t.request({ method: 'GET', url: '/api/transactions/summary', token: alice.token })).json();
    expect(summary.data).toMatchObject({ total: 5, pending: 4, cancelled: 1, processing: 0, completed: 0 });
  });

  it('refuses a bad cursor, status or page size with a clear message', async () => {
    const bad = await t.request({ method: 'GET', url: '/api/transactions?cursor=garbage', token: alice.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('The page cursor is invalid.');
    expect((await t.request({ method: 'GET', url: '/api/transfer-requests?status=lost', token: alice.token })).json().error).toBe('Choose a valid status.');
    expect((await t.request({ method: 'GET', url: '/api/transactions?limit=500', token: alice.token })).json().error).toBe('The page size must be between 1 and 100.');
  });

  it('requires a signed-in caller', async () => {
    expect((await t.request({ method: 'GET', url: '/api/transactions' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/transfer-requests' })).statusCode).toBe(401);
  });
});

describe('details, timeline and cancel', () => {
  it('shows the owner the request with its timeline, and e-mails each status change', async () => {
    const created = await createTransfer(alice, '120', 'Timeline Person');
    const moved = await t.request({ method: 'PATCH', url: `/api/transfer-requests/${created.id}`, token: manager.token, payload: { status: 'processing', note: 'Checking payment' } });
    expect(moved.statusCode).toBe(200);
    await t.jobsDone();
    await smtp.waitFor(alice.email, new RegExp(`Transfer ${created.reference}: Processing`));
    const res = await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}`, token: alice.token });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ id: created.id, status: 'processing', has_proof: false });
    expect(data.history.map((h: { from_status: string | null; to_status: string }) => [h.from_status, h.to_status])).toEqual([[null, 'pending'], ['pending', 'processing']]);
    expect(data.history[1]).toMatchObject({ note: 'Checking payment', actor_role: 'manager' });
    const cancel = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/cancel`, token: alice.token });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error).toBe('Failed to update status: A transfer can only be cancelled while it is pending.');
  });

  it('lets the owner cancel while pending, with an e-mail', async () => {
    const created = await createTransfer(alice, '60');
    const res = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/cancel`, token: alice.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('cancelled');
    await t.jobsDone();
    await smtp.waitFor(alice.email, new RegExp(`Transfer ${created.reference}: Cancelled`));
    const again = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/cancel`, token: alice.token });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Failed to update status: The transfer already has this status.');
  });
});

describe('a sender can see, cancel or download nothing of another sender’s', () => {
  it('answers 404 to Bob for everything of Alice’s, while staff may read it', async () => {
    const created = await createTransfer(alice, '90');
    expect((await upload(alice, created.id, 'receipt.png', PNG)).statusCode).toBe(201);
    const paths = [`/api/transfer-requests/${created.id}`, `/api/transfer-requests/${created.id}/proof`];
    for (const url of paths) {
      const res = await t.request({ method: 'GET', url, token: bob.token });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Resource not found.');
    }
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/cancel`, token: bob.token })).statusCode).toBe(404);
    expect((await upload(bob, created.id, 'x.png', PNG)).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/transfer-requests/not-a-uuid', token: bob.token })).statusCode).toBe(404);
    const bobsList = (await t.request({ method: 'GET', url: '/api/transactions', token: bob.token })).json().data;
    expect(bobsList.some((x: { transfer_request_id: string }) => x.transfer_request_id === created.id)).toBe(false);

    const staffView = await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}/proof`, token: manager.token });
    expect(staffView.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}`, token: manager.token })).statusCode).toBe(200);
  });
});

describe('proof of payment', () => {
  it('stores a PNG or PDF checked by content and serves the newest inline to the owner', async () => {
    const created = await createTransfer(alice, '110');
    const png = await upload(alice, created.id, 'screenshot.png', PNG);
    expect(png.statusCode).toBe(201);
    expect(png.json().data).toMatchObject({ mime_type: 'image/png', filename: 'screenshot.png' });
    const pdf = await upload(alice, created.id, 'bank-slip.pdf', PDF, 'application/pdf');
    expect(pdf.json().data.mime_type).toBe('application/pdf');
    const res = await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}/proof`, token: alice.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="bank-slip.pdf"/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}`, token: alice.token })).json().data.has_proof).toBe(true);
  });

  it('keeps a proof whose file name holds control characters, the name cleaned (never a 500)', async () => {
    const created = await createTransfer(alice, '111');
    const res = await upload(alice, created.id, 'slip\u0000\u0001\u007f.png', PNG);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.filename).toBe('slip___.png');
  });

  it('refuses a proof on a cancelled or rejected transfer with 409 proof_closed, storing nothing', async () => {
    const cancelled = await createTransfer(alice, '117');
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${cancelled.id}/cancel`, token: alice.token })).statusCode).toBe(200);
    const rejected = await createTransfer(alice, '118');
    expect((await t.request({ method: 'PATCH', url: `/api/transfer-requests/${rejected.id}`, token: manager.token, payload: { status: 'rejected', note: 'Wrong account' } })).statusCode).toBe(200);
    for (const { id } of [cancelled, rejected]) {
      const res = await upload(alice, id, 'late.png', PNG);
      expect([res.statusCode, res.json().code]).toEqual([409, 'proof_closed']);
      expect(res.json().error).toBe('This transfer is closed: it takes no more proofs of payment, and nothing more is to be paid for it.');
      const fr = await t.request({ method: 'POST', url: `/api/transfer-requests/${id}/proof`, token: alice.token, headers: { 'accept-language': 'fr', ...multipart('late.png', PNG, 'image/png').headers }, payload: multipart('late.png', PNG, 'image/png').payload });
      expect([fr.statusCode, fr.json().error]).toEqual([409, 'Ce transfert est clos\u00a0: il n’accepte plus de preuve de paiement, et plus rien n’est à payer.']);
      const { data } = (await t.request({ method: 'GET', url: `/api/transfer-requests/${id}`, token: alice.token })).json();
      expect(data).toMatchObject({ has_proof: false, proofs: [] });
    }
  });

  it('refuses a file whose extension lies about its content', async () => {
    const created = await createTransfer(alice, '115');
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await upload(alice, created.id, 'photo.png', html, 'image/png');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('The file must be a PNG, JPEG or WebP image or a PDF document.');
    const exe = await upload(alice, created.id, 'proof.pdf', Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), 'application/pdf');
    expect(exe.statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}/proof`, token: alice.token })).statusCode).toBe(404);
  });

  it('keeps every proof for staff, each with its time: a later upload does not replace the one staff saw', async () => {
    const created = await createTransfer(alice, '117');
    const first = (await upload(alice, created.id, 'first.png', PNG)).json().data;
    const second = (await upload(alice, created.id, 'second.pdf', PDF, 'application/pdf')).json().data;
    const details = (await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}`, token: manager.token })).json().data;
    expect(details.proofs.map((p: { filename: string }) => p.filename)).toEqual(['second.pdf', 'first.png']);
    expect(Date.parse(details.proofs[1].created_at)).toBeLessThanOrEqual(Date.parse(details.proofs[0].created_at));
    const old = await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}/proofs/${first.id}`, token: manager.token });
    expect(old.statusCode).toBe(200);
    expect(old.rawPayload.equals(PNG)).toBe(true);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}/proofs/${second.id}`, token: bob.token })).statusCode).toBe(404);
    const other = await createTransfer(alice, '118');
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${other.id}/proofs/${first.id}`, token: manager.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}/proofs/nope`, token: manager.token })).statusCode).toBe(404);
  });

  it('takes at most 5 proofs per transfer and 20 per sender a day, with a clear message and nothing stored', async () => {
    const carol = await createUser(t, { full_name: 'Carol' });
    const transfers = [];
    for (const amount of ['60', '61', '62', '63', '64']) transfers.push(await createTransfer(carol, amount));
    const [a, b, c, d, e] = transfers.map((x) => x.id) as [string, string, string, string, string];
    for (let i = 0; i < 5; i += 1) expect((await upload(carol, a, `p${i}.png`, PNG)).statusCode).toBe(201);
    const sixth = await upload(carol, a, 'p5.png', PNG);
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().error).toBe('This transfer already has 5 proofs of payment, the most it can take. Write to support if another is needed.');
    const concurrent = await Promise.all([b, b, b, b, b, b, b].map((id) => upload(carol, id, 'race.png', PNG)));
    expect(concurrent.filter((r) => r.statusCode === 201)).toHaveLength(5);
    for (const id of [c, d]) for (let i = 0; i < 5; i += 1) expect((await upload(carol, id, 'more.png', PNG)).statusCode).toBe(201);
    const overDaily = await upload(carol, e, 'late.png', PNG, 'image/png');
    expect(overDaily.statusCode).toBe(429);
    expect(overDaily.json().error).toBe('You have uploaded 20 proofs of payment in the last 24 hours, the most allowed. Please try again tomorrow.');
    const stored = (await t.request({ method: 'GET', url: `/api/transfer-requests/${e}`, token: carol.token })).json().data;
    expect(stored.proofs).toEqual([]);
    expect(stored.has_proof).toBe(false);
  });

  it('refuses a file over 5 MB and an upload without a file', async () => {
    const created = await createTransfer(alice, '116');
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const res = await upload(alice, created.id, 'big.png', big);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('The file is too large: at most 5 MB.');
    const none = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/proof`, token: alice.token, payload: {} });
    expect(none.statusCode).toBe(400);
  });
});
