import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { OidcProvider } from '../../support/oidc-provider.js';
import { passGroupingWindows } from '../../support/mail-grouping.js';
import { type ReceivedMail, SmtpListener } from '../../support/smtp-listener.js';
import { launchBrowser, newPage } from './browser.js';
import { startBuiltServer, type E2eServer } from './server.js';

/** Someone with an account: what the sign-up form asks for. */
export interface Account {
  email: string;
  password: string;
  full_name: string;
}

/** The back-office admin the server creates on first start (ADMIN_EMAIL / ADMIN_PASSWORD in server.ts). */
export const BOOTSTRAP_ADMIN = { email: 'admin@example.test', password: 'Bootstrap-Staff-Key-1', full_name: 'Admin' } as const;

/** A 1×1 PNG, by its real bytes: the proof of payment a sender uploads. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d4944415408d763f8ffffff7f0009fb03fdd1838cf00000000049454e44ae426082',
  'hex',
);

export interface TransferRef {
  id: string;
  reference: string;
}

export interface E2eApp {
  server: E2eServer;
  browser: Browser;
  /** The SMTP server the app sends to, when asked for with `smtp: true`. */
  smtp: SmtpListener;
  /** The Google sign-in provider, when asked for with `oidc: true`. */
  oidc: OidcProvider;
  /** A call to the app's API, whatever its answer. */
  request<T = Record<string, unknown>>(method: string, urlPath: string, body?: unknown, token?: string): Promise<{ status: number; json: T }>;
  /** A call to the app's API; throws with the answer unless it is 2xx. */
  api<T = Record<string, unknown>>(method: string, urlPath: string, body?: unknown, token?: string): Promise<T>;
  /** A fresh page (own cookies and storage), English unless told otherwise. */
  page(opts?: { locale?: string; width?: number }): Promise<Page>;
  /**
   * "A sender exists": registered and e-mail verified through the API, its profile completed
   * (street address, date of birth) and set at an identity level (3 unless told: a test about
   * limits picks its own; 0 leaves the profile as sign-up made it); returns a session token.
   */
  senderExists(account: Account, phone?: string, opts?: { level?: 0 | 1 | 2 | 3 }): Promise<string>;
  /**
   * The newest e-mail to `to` matching `match` about a transfer's steps: grouped for a minute as
   * deployed, so its grouping window is passed (as the API tests' jobsDone does) until it arrives.
   */
  transferMail(to: string, match: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  /** A statement on the server's own database (PostgreSQL under its DATA_DIR), for what only staff reviews change. */
  sql<R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /**
   * A session token for an existing account, from the API. Staff accounts pass two-step sign-in:
   * enrolled here through the API on their first sign-in, with a code computed from the secret after.
   */
  tokenFor(account: { email: string; password: string }): Promise<string>;
  /** The next code of an account the fixtures enrolled (each code is used once: it may wait for the next step). */
  totpCode(email: string): Promise<string>;
  /** Signs in on the sign-in screen, as a person does (with a code for an account the fixtures enrolled), and waits to leave it. */
  signIn(page: Page, account: { email: string; password: string }): Promise<void>;
  /** A page already signed in, by an API sign-in kept where the app keeps its session. */
  signedInPage(account: { email: string; password: string }, opts?: { locale?: string; width?: number }): Promise<Page>;
  /** "Staff signed in": the bootstrap admin, or a manager made by the admin, signed in on a new page. */
  staffSignedIn(role: 'admin'): Promise<Page>;
  staffSignedIn(role: 'manager', account: Account): Promise<Page>;
  /** "A transfer exists": created through the API, USD → Airtel Money Gabon. */
  transferExists(token: string, opts?: { amount?: string; recipient?: string; phone?: string }): Promise<TransferRef>;
}

/**
 * One built server and one Chromium for the test file (and an SMTP server or a Google provider if
 * asked), started before its tests and stopped after them.
 */
export function useE2eApp(opts: { smtp?: boolean; oidc?: boolean; env?: (app: E2eApp) => Record<string, string> } = {}): E2eApp {
  const app = {} as E2eApp;

  beforeAll(async () => {
    if (opts.smtp) app.smtp = await new SmtpListener().start();
    if (opts.oidc) app.oidc = await new OidcProvider().start();
    const env = { ...(opts.smtp ? { SMTP_URL: app.smtp.url } : {}), ...opts.env?.(app) };
    [app.server, app.browser] = await Promise.all([startBuiltServer(env), launchBrowser()]);
  });
  afterAll(async () => {
    await app.browser?.close();
    await app.server?.stop();
    await app.smtp?.stop();
    await app.oidc?.stop();
  });

  app.request = async <T>(method: string, urlPath: string, body?: unknown, token?: string) => {
    const res = await fetch(`${app.server.url}${urlPath}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as T };
  };

  app.api = async <T>(method: string, urlPath: string, body?: unknown, token?: string): Promise<T> => {
    const { status, json } = await app.request<T>(method, urlPath, body, token);
    if (status < 200 || status > 299) throw new Error(`${method} ${urlPath}: ${status} ${JSON.stringify(json)}`);
    return json;
  };

  app.page = (pageOpts) => newPage(app.browser, pageOpts);

  app.senderExists = async (account, phone = '+24177000000', { level = 3 } = {}) => {
    if (!app.smtp) throw new Error('senderExists needs useE2eApp({ smtp: true }) for the e-mailed code');
    await app.api('POST', '/api/auth/register', { ...account, phone, city: 'Libreville', country: 'GA' });
    const otp = await app.smtp.codeFor(account.email);
    const { token } = await app.api<{ token: string }>('POST', '/api/auth/verify-otp', { email: account.email, otp });
    if (level === 0) return token;
    // Sending needs a complete profile (docs/rules/know-your-sender.md#levels); levels 2 and 3 come from staff reviews.
    await app.api('PATCH', '/api/profiles/me', { address: '12 rue des Palmiers', date_of_birth: '1990-04-12' }, token);
    if (level > 1) await app.sql('update profiles set kyc_level = $1 where lower(email) = lower($2)', [level, account.email]);
    return token;
  };

  app.sql = async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) => {
    const dir = app.server.dataDir;
    // The embedded server's port is the fourth line of its postmaster.pid; its password is kept beside the data.
    const port = Number(readFileSync(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
    const password = readFileSync(path.join(dir, 'postgres-password'), 'utf8').trim();
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'app' });
    await client.connect();
    try {
      return (await client.query<R>(text, params)).rows;
    } finally {
      await client.end();
    }
  };

  app.transferMail = async (to, match, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await passGroupingWindows(async (text, params) => ({ rows: await app.sql(text, params) }));
      try {
        return await app.smtp.waitFor(to, match, 500);
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
    }
  };

  // Two-step sign-in (docs/rules/accounts.md#two-step-sign-in): the TOTP secrets of the staff
  // accounts enrolled here, the last time step used by each (the server takes no code twice), and
  // their unused recovery codes.
  const enrolled = new Map<string, { secret: string; lastStep: number; recovery: string[] }>();
  const STEP_MS = 30_000;
  const codeOf = (secret: string, step: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: step * STEP_MS });

  app.totpCode = async (email) => {
    const account = enrolled.get(email.toLowerCase());
    if (!account) throw new Error(`${email} was not enrolled by the fixtures`);
    // The current step, or the next one (the server allows one step of drift); when both are
    // spent, a recovery code (single-use, as a person would use one) rather than waiting 30 s.
    const now = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(account.lastStep + 1, now);
    if (step <= now + 1) {
      account.lastStep = step;
      return codeOf(account.secret, step);
    }
    const recovery = account.recovery.shift();
    if (recovery) return recovery;
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * STEP_MS - Date.now() + 50));
    return app.totpCode(email);
  };

  app.tokenFor = async (account) => {
    const answer = await app.api<{ token?: string; mfa_token?: string }>('POST', '/api/auth/login', account);
    if (answer.mfa_token) {
      return (await app.api<{ token: string }>('POST', '/api/auth/mfa/verify', { mfa_token: answer.mfa_token, code: await app.totpCode(account.email) })).token;
    }
    const token = answer.token!;
    const { data } = await app.api<{ data: { role: string; totp_enabled: boolean } }>('GET', '/api/profiles/me', undefined, token);
    if (data.role !== 'user' && !data.totp_enabled) {
      // Staff enrol before the back office answers them; enrolling verifies this session. Setup
      // asks for the current password first, as an e-mail or password change does.
      const { secret } = await app.api<{ secret: string }>('POST', '/api/auth/mfa/setup', { current_password: account.password }, token);
      const step = Math.floor(Date.now() / STEP_MS);
      const { recovery_codes } = await app.api<{ recovery_codes: string[] }>('POST', '/api/auth/mfa/enable', { code: codeOf(secret, step) }, token);
      enrolled.set(account.email.toLowerCase(), { secret, lastStep: step, recovery: recovery_codes });
    }
    return token;
  };

  app.signIn = async (page, account) => {
    await submitSignIn(page, app.server.url, account);
    if (enrolled.has(account.email.toLowerCase())) {
      const code = page.getByRole('textbox', { name: 'Code', exact: true });
      await code.fill(await app.totpCode(account.email));
      await page.getByRole('button', { name: 'Verify', exact: true }).click();
    }
    await page.waitForURL((url) => url.pathname !== '/login');
  };

  app.signedInPage = async (account, pageOpts) => {
    const token = await app.tokenFor(account);
    const page = await app.page(pageOpts);
    // Storage belongs to the origin: open a file of it, keep the session there, then use the app.
    await page.goto(`${app.server.url}/robots.txt`);
    await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
    return page;
  };

  app.staffSignedIn = (async (role: 'admin' | 'manager', account?: Account) => {
    if (role === 'manager') {
      await app.senderExists(account!);
      const admin = await app.tokenFor(BOOTSTRAP_ADMIN);
      const found = await app.api<{ data: { id: string }[] }>('GET', `/api/profiles?q=${encodeURIComponent(account!.email)}`, undefined, admin);
      await app.api('PATCH', `/api/profiles/${found.data[0]!.id}`, { role: 'manager' }, admin);
    }
    // Enrolled in two-step sign-in (once), so the sign-in below gives a code and reaches the back office.
    await app.tokenFor(role === 'admin' ? BOOTSTRAP_ADMIN : account!);
    const page = await app.page();
    await app.signIn(page, role === 'admin' ? BOOTSTRAP_ADMIN : account!);
    return page;
  }) as E2eApp['staffSignedIn'];

  app.transferExists = async (token, t = {}) => {
    const { data } = await app.api<{ data: TransferRef }>('POST', '/api/payments/initiate', {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: t.amount ?? '100', currency: 'USD',
      destination_details: { recipient_name: t.recipient ?? 'Jean Ndong', recipient_phone: t.phone ?? '+24177123456' },
    }, token);
    return data;
  };

  return app;
}

/** Fills in the sign-in screen and presses "Sign in", without waiting for the outcome. */
export async function submitSignIn(page: Page, baseUrl: string, account: { email: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * What a description list shows, term by term ("Fee" → "$5.85"), read as a person reads it: each
 * term with the description(s) that follow it. Terms and descriptions are found by their roles.
 */
export async function described(scope: Page | Locator): Promise<Record<string, string>> {
  const pairs = await scope.getByRole('term').evaluateAll((terms) =>
    terms.map((term) => {
      const values: string[] = [];
      for (let el = term.nextElementSibling; el && el.tagName === 'DD'; el = el.nextElementSibling) values.push(el.textContent?.trim() ?? '');
      return [term.textContent?.trim() ?? '', values.join('\n')] as const;
    }),
  );
  return Object.fromEntries(pairs);
}

/** The value a description list shows for one term (undefined while it is not there). */
export async function valueOf(scope: Page | Locator, term: string): Promise<string | undefined> {
  return (await described(scope))[term];
}

/** The notifications region where toasts appear. */
export const toasts = (page: Page): Locator => page.getByRole('region', { name: 'Notifications' });

/** The header's link to the signed-in person's profile, which shows their name. */
export const accountLink = (scope: Page | Locator, name: string): Locator => scope.getByRole('link', { name: `Profile: ${name}`, exact: true });
