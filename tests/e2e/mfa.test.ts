import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, submitSignIn, useE2eApp } from './support/fixtures.js';
import { shot } from './support/screenshots.js';

// Two-step sign-in (docs/rules/accounts.md#two-step-sign-in), as an admin does it on a phone: sent
// to enrol after the first sign-in, confirms it is them with the password (note 019), reads the
// setup key from the page, turns it on with a code from the app (computed here with the same
// library), keeps the recovery codes, signs out, and signs in again with a code.
const app = useE2eApp();

const PHONE = 360;
const STEP_MS = 30_000;
const codeAt = (secret: string, step: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: step * STEP_MS });

describe('two-step sign-in', () => {
  it('an admin enrols by reading the secret from the page, signs out, and signs in with a code', async () => {
    // Another session, opened by the password alone before enrolling: even the admin's own pages
    // wait for two-step sign-in.
    const before = await app.page();
    await submitSignIn(before, app.server.url, BOOTSTRAP_ADMIN);
    await before.waitForURL((url) => url.pathname === '/two-step');
    await before.goto(`${app.server.url}/history`);
    await before.waitForURL((url) => url.pathname === '/two-step');

    const page = await app.page({ width: PHONE });
    await submitSignIn(page, app.server.url, BOOTSTRAP_ADMIN);
    // Staff without it are sent to set it up.
    await page.waitForURL((url) => url.pathname === '/two-step');
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();

    // First the owner's proof, as for an e-mail or password change: no secret before the password.
    const proof = page.getByRole('form', { name: 'Confirm it is you' });
    await proof.waitFor();
    expect(await page.getByRole('textbox', { name: 'Setup key' }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);
    const current = proof.getByLabel('Current password');
    await proof.getByRole('button', { name: 'Continue' }).click();
    await proof.getByText('Enter your current password to confirm this change.').waitFor();
    await current.fill('not-the-admin-password');
    await proof.getByRole('button', { name: 'Continue' }).click();
    // A wrong one is said under the field, which names it.
    const wrong = proof.getByText('Your current password is not correct. Nothing was changed.');
    await wrong.waitFor();
    expect(await current.getAttribute('aria-invalid')).toBe('true');
    expect(await current.getAttribute('aria-describedby')).toContain(await wrong.getAttribute('id'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);
    await current.fill(BOOTSTRAP_ADMIN.password);
    await proof.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('img', { name: 'QR code to scan with an authenticator app' }).waitFor();
    const secret = await page.getByRole('textbox', { name: 'Setup key' }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);

    // A wrong code is said on the field; the right one turns it on.
    const code = page.getByRole('textbox', { name: 'Code' });
    const enrolStep = Math.floor(Date.now() / STEP_MS);
    await code.fill(codeAt(secret, enrolStep + 5));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('This code is not correct. Enter the 6-digit code your authenticator app shows now', { exact: false }).waitFor();
    await code.fill(codeAt(secret, enrolStep));
    await page.getByRole('button', { name: 'Turn on' }).click();

    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const recovery = await list.getByRole('listitem').allTextContents();
    expect(recovery).toHaveLength(10);
    for (const c of recovery) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await page.getByRole('button', { name: 'Copy codes' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download codes' }).click()]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('region', { name: 'Transfer requests by status' }).waitFor();

    // The session opened before enrolling has no code behind it: it is asked to sign in again.
    await before.goto(`${app.server.url}/admin`);
    await before.getByRole('heading', { name: 'Sign in again with your code' }).waitFor();
    expect(await before.getByRole('region', { name: 'Transfer requests by status' }).count()).toBe(0);
    await shot(before, 'staff-sign-in-again');
    await before.getByRole('button', { name: 'Sign in again' }).click();
    await before.waitForURL((url) => url.pathname === '/login');
    await before.context().close();

    // Sign out, then in again: the password, then a code (a later step than the one used).
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await submitSignIn(page, app.server.url, BOOTSTRAP_ADMIN);
    const step = page.getByRole('textbox', { name: 'Code', exact: true });
    await step.waitFor();
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    await step.fill(codeAt(secret, Math.max(enrolStep + 1, Math.floor(Date.now() / STEP_MS))));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${app.server.url}/admin`);
    await page.getByRole('region', { name: 'Transfer requests by status' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');

    // The profile says it is on, and staff cannot turn it off.
    await page.goto(`${app.server.url}/profile`);
    await page.getByText('On: each sign-in asks for a code from your authenticator app.').waitFor();
    expect(await page.getByRole('button', { name: 'Turn off two-step sign-in' }).count()).toBe(0);
  });
});
