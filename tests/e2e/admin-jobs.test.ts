import { describe, expect, it } from 'vitest';
import { SmtpListener } from '../support/smtp-listener.js';
import { toasts, useE2eApp } from './support/fixtures.js';

// An e-mail that failed every attempt is parked; the admin sees it on /admin with its last error
// and retries it once the mail server is back (docs/decisions/014-durable-jobs.md).
const app = useE2eApp({ smtp: true, env: () => ({ JOB_MAX_ATTEMPTS: '1' }) });

const SENDER = { email: 'parked-sender@example.test', password: 'Sandra-Sends-Money-1', full_name: 'Sandra Sender' };

describe('parked jobs in the back office', () => {
  it('shows a parked e-mail with its last error, and a retry delivers it', async () => {
    const token = await app.senderExists(SENDER);
    const port = Number(new URL(app.smtp.url).port);
    await app.smtp.stop();
    const transfer = await app.transferExists(token);

    const page = await app.staffSignedIn('admin');
    await page.goto(`${app.server.url}/admin?tab=jobs`);
    const stats = page.getByRole('region', { name: 'Transfer requests by status' });
    await expect.poll(async () => {
      await page.reload();
      return stats.getByRole('listitem').filter({ hasText: 'Parked jobs' }).textContent();
    }, { timeout: 15_000 }).toContain('1');
    const jobs = page.getByRole('region', { name: 'Parked background jobs' });
    const job = jobs.getByRole('row').filter({ hasText: 'E-mail about a transfer' });
    await job.getByText(/ECONNREFUSED/).waitFor();
    expect(await jobs.textContent()).not.toContain(transfer.reference);

    const back = await new SmtpListener().start(port);
    app.smtp = back;
    await job.getByRole('button', { name: /^Retry job / }).click();
    await toasts(page).getByText('The job is back in line.').waitFor();
    await back.waitFor(SENDER.email, new RegExp(`Transfer ${transfer.reference} created`), 15_000);
    await expect.poll(async () => {
      await page.reload();
      await page.getByRole('heading', { name: 'Parked background jobs' }).waitFor();
      return page.locator('main').textContent();
    }, { timeout: 10_000 }).toContain('No parked jobs');
  }, 90_000);
});
