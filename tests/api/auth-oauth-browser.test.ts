import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthStates } from '@server/db/schema.js';
import { OidcProvider } from '../support/oidc-provider.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress, uniqueEmail } from './auth-fixtures.js';
import { Browser, facebookAt, googleAt, listeningApp, location, mailedConfirmLink, signInThrough, startAtProvider } from './oauth-fixtures.js';

// A sign-in belongs to the browser that started it (login CSRF), and starting one is limited.

let oidc: OidcProvider;
let t: TestApp;
let base: string;
beforeAll(async () => {
  oidc = await new OidcProvider().start();
  ({ t, base } = await listeningApp({
    ...googleAt(oidc),
    ...facebookAt(oidc),
  }));
});
afterAll(async () => {
  await t?.close();
  await oidc?.stop();
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(['google', 'facebook'] as const)('%s sign-in is bound to the browser that started it', (provider) => {
  it('does not sign a victim into the attacker\'s account with the attacker\'s callback URL', async () => {
    oidc.signInAs({ sub: `attacker-${provider}`, email: uniqueEmail('attacker'), email_verified: true, name: 'Attacker' });
    // The attacker runs the flow up to the provider's answer and sends the callback URL on.
    const first = await startAtProvider(new Browser(), base, provider);
    const noCookie = await new Browser().open(first.callback.toString());
    expect(noCookie.status).toBe(302);
    expect(location(noCookie)).toBe(`/login?error=oauth_failed&provider=${provider}`);

    // A victim in the middle of a sign-in of their own has a cookie, just not the attacker's.
    const victim = new Browser();
    await startAtProvider(victim, base, provider);
    const second = await startAtProvider(new Browser(), base, provider);
    const otherCookie = await victim.open(second.callback.toString());
    expect(location(otherCookie)).toBe(`/login?error=oauth_failed&provider=${provider}`);
  });

  it('still signs in the browser that started, and clears its cookie', async () => {
    const email = uniqueEmail(provider);
    oidc.signInAs({ sub: `owner-${email}`, email, email_verified: true, name: 'Owner' });
    const browser = new Browser();
    const { back } = await signInThrough(base, provider, browser);
    expect(back.headers.getSetCookie()).toContain(`oauth_${provider}=; Path=/api/auth; Max-Age=0; HttpOnly; SameSite=Lax`);
    // Facebook's address is confirmed by mail first, in the same browser (auth-oauth-facebook.test.ts).
    const landing = new URL(provider === 'facebook' ? location(await browser.open(await mailedConfirmLink(t, email))) : location(back), base);
    expect(landing.pathname).toBe('/');
    expect(landing.searchParams.get('token')).toBeTruthy();
    expect(browser.cookies.size).toBe(0);
  });
});

describe('the browser cookie', () => {
  it('is a short-lived HttpOnly, SameSite=Lax secret whose hash alone is stored', async () => {
    const start = await new Browser().open(`${base}/api/auth/facebook`);
    const state = new URL(location(start)).searchParams.get('state')!;
    const [cookie] = start.headers.getSetCookie();
    const secret = /^oauth_facebook=([\w-]{43}); Path=\/api\/auth; Max-Age=600; HttpOnly; SameSite=Lax$/.exec(cookie ?? '')?.[1];
    expect(secret).toBeTruthy();
    const [row] = await t.database.db.select().from(oauthStates).where(eq(oauthStates.state, state));
    expect(row!.browser_hash).toBe(sha256(secret!));
  });

  it('is Secure when the public address is https', async () => {
    const secureApp = await createTestApp({ env: { PUBLIC_URL: 'https://pay.example.test', FACEBOOK_CLIENT_ID: 'fb', FACEBOOK_CLIENT_SECRET: 'fb-secret' } });
    try {
      const res = await secureApp.request({ method: 'GET', url: '/api/auth/facebook' });
      expect(res.statusCode).toBe(302);
      expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await secureApp.close();
    }
  });
});

describe('starting a sign-in', () => {
  const countStates = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(oauthStates))[0]!.n;

  it('is limited per client address, and a refused start goes back to /login saying why', async () => {
    const address = uniqueAddress();
    const start = () => t.request({ method: 'GET', url: '/api/auth/facebook', headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 30; i++) expect((await start()).statusCode).toBe(302);
    const before = await countStates();
    const refused = await start();
    expect(refused.statusCode).toBe(302);
    expect(refused.headers.location).toBe('/login?error=oauth_rate_limited&provider=facebook');
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(await countStates()).toBe(before);
    // Google from the same address is refused too; another address is not.
    const google = await t.request({ method: 'GET', url: '/api/auth/google', headers: { 'x-forwarded-for': address } });
    expect(google.headers.location).toBe('/login?error=oauth_rate_limited&provider=google');
    const other = await t.request({ method: 'GET', url: '/api/auth/facebook', headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(other.headers.location).toMatch(/^http:\/\/(127\.0\.0\.1|localhost):\d+\/authorize\?/);
  });

  it('sweeps flows left unfinished past their ten minutes', async () => {
    await t.database.db.insert(oauthStates).values({ state: 'abandoned', provider: 'google', code_verifier: 'v', expires_at: new Date(Date.now() - 1000) });
    await t.request({ method: 'GET', url: '/api/auth/facebook', headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(await t.database.db.select().from(oauthStates).where(eq(oauthStates.state, 'abandoned'))).toEqual([]);
  });
});
