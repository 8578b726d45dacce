// OAuth test helpers: the app listening on loopback, and a browser that keeps its cookies.
import { desc, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { expect } from 'vitest';
import { mailOutbox } from '@server/db/schema.js';
import { freePort } from '@server/lib/free-port.js';
import type { OidcProvider } from '../support/oidc-provider.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The app listening on loopback, its public URL pointing at itself, and the provider configured. */
/** Facebook's endpoints pointed at the OpenID Connect peer of the test (it answers the plain OAuth 2.0 flow too). */
export const facebookAt = (oidc: OidcProvider) => ({
  FACEBOOK_CLIENT_ID: 'fb-client', FACEBOOK_CLIENT_SECRET: 'fb-secret',
  FACEBOOK_AUTH_URL: oidc.url('authorize'), FACEBOOK_TOKEN_URL: oidc.url('token'), FACEBOOK_USERINFO_URL: oidc.url('userinfo'),
});

/** Google's OpenID Connect discovery pointed at the test's peer. */
export const googleAt = (oidc: OidcProvider) => ({ GOOGLE_CLIENT_ID: 'app-client', GOOGLE_CLIENT_SECRET: 'app-secret', GOOGLE_ISSUER: oidc.issuer });

export async function listeningApp(env: Record<string, string>, logger?: Logger): Promise<{ t: TestApp; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ env: { PUBLIC_URL: base, ...env }, logger });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base };
}

export const location = (res: Response) => res.headers.get('location') ?? '';

interface StoredCookie { origin: string; path: string; value: string }

/** Follows nothing by itself; keeps each origin's cookies (name, path, Max-Age) as a browser would. */
export class Browser {
  readonly cookies = new Map<string, StoredCookie>();

  async open(url: string): Promise<Response> {
    const u = new URL(url);
    const cookie = [...this.cookies].filter(([, c]) => c.origin === u.origin && u.pathname.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';').map((s) => s.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const attr = (key: string) => attrs.find((a) => a.toLowerCase().startsWith(`${key.toLowerCase()}=`))?.split('=')[1];
      if (attr('Max-Age') === '0') this.cookies.delete(name);
      else this.cookies.set(name, { origin: u.origin, path: attr('Path') ?? '/', value: pair.slice(name.length + 1) });
    }
    return res;
  }
}

/** The app's start URL → the provider, which answers at once with a redirect to the callback. */
export async function startAtProvider(browser: Browser, base: string, provider: 'google' | 'facebook') {
  const start = await browser.open(`${base}/api/auth/${provider}`);
  expect(start.status).toBe(302);
  const authorize = location(start);
  const atProvider = await browser.open(authorize);
  expect(atProvider.status).toBe(302);
  return { start, authorize: new URL(authorize), callback: new URL(location(atProvider)) };
}

/** A whole sign-in in one browser: start → provider → callback → the app with a ticket (or /login). */
export async function signInThrough(base: string, provider: 'google' | 'facebook', browser = new Browser()) {
  const { authorize, callback } = await startAtProvider(browser, base, provider);
  const back = await browser.open(callback.toString());
  expect(back.status).toBe(302);
  return { authorize, callback, back, landing: new URL(location(back), base) };
}

/** The confirmation link last mailed to `email` (the development outbox keeps every e-mail). */
export async function mailedConfirmLink(t: TestApp, email: string): Promise<string> {
  await t.jobsDone();
  const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.id)).limit(1);
  const link = /https?:\/\/\S+\/api\/auth\/facebook\/confirm\?token=[\w%-]+/.exec(mail?.text ?? '')?.[0];
  expect(link, `a confirmation link mailed to ${email}`).toBeTruthy();
  return link!;
}
