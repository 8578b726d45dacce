import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identities, oauthStates, oneTimeCodes, profiles } from '@server/db/schema.js';
import { createUser } from '../support/factories.js';
import { OidcProvider } from '../support/oidc-provider.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueEmail } from './auth-fixtures.js';
import { Browser, facebookAt, googleAt, listeningApp, location, mailedConfirmLink, signInThrough, startAtProvider } from './oauth-fixtures.js';

async function exchange(t: TestApp, ticket: string) {
  return t.request({ method: 'POST', url: '/api/auth/exchange', payload: { ticket } });
}

let oidc: OidcProvider;
beforeAll(async () => { oidc = await new OidcProvider().start(); });
afterAll(async () => { await oidc?.stop(); });

describe('Google (OpenID Connect) against a provider on loopback', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    ({ t, base } = await listeningApp(googleAt(oidc)));
  });
  afterAll(async () => { await t?.close(); });

  it('runs the code flow with state, nonce and PKCE, and the ticket signs in once', async () => {
    const email = uniqueEmail('google');
    oidc.signInAs({ sub: `g-${email}`, email, email_verified: true, name: 'Grace Obame' });
    const { authorize, callback, landing } = await signInThrough(base, 'google');

    expect(authorize.origin).toBe(new URL(oidc.issuer).origin);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${base}/api/auth/google/callback`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('scope')).toBe('openid email profile');
    expect(callback.searchParams.get('state')).toBe(authorize.searchParams.get('state'));

    expect(landing.pathname).toBe('/');
    const ticket = landing.searchParams.get('token')!;
    expect(ticket).toBeTruthy();
    const first = await exchange(t, ticket);
    expect(first.statusCode).toBe(200);
    const { token } = first.json();
    const me = await t.request({ method: 'GET', url: '/api/profiles/me', token });
    expect(me.json().data).toMatchObject({ email, full_name: 'Grace Obame', role: 'user', email_verified: true });

    // The ticket is single-use, and it is not a session token.
    expect((await exchange(t, ticket)).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/profiles/me', token: ticket })).statusCode).toBe(401);
    // The state was used up.
    expect(await t.database.db.select().from(oauthStates).where(eq(oauthStates.state, callback.searchParams.get('state')!))).toEqual([]);
  });

  it('signs the same Google account into the same profile next time', async () => {
    const email = uniqueEmail('again');
    oidc.signInAs({ sub: `g-${email}`, email, email_verified: true, name: 'Again' });
    const first = (await exchange(t, (await signInThrough(base, 'google')).landing.searchParams.get('token')!)).json().token;
    const second = (await exchange(t, (await signInThrough(base, 'google')).landing.searchParams.get('token')!)).json().token;
    const a = (await t.request({ method: 'GET', url: '/api/profiles/me', token: first })).json().data;
    const b = (await t.request({ method: 'GET', url: '/api/profiles/me', token: second })).json().data;
    expect(a.id).toBe(b.id);
  });

  it('links an existing account by its verified e-mail, keeping its role and password', async () => {
    const user = await createUser(t, { role: 'manager', full_name: 'Existing' });
    oidc.signInAs({ sub: `g-existing-${user.id}`, email: user.email.toUpperCase(), email_verified: true, name: 'Other Name' });
    const { landing } = await signInThrough(base, 'google');
    const { token } = (await exchange(t, landing.searchParams.get('token')!)).json();
    const me = (await t.request({ method: 'GET', url: '/api/profiles/me', token })).json().data;
    expect(me).toMatchObject({ id: user.id, role: 'manager', full_name: 'Existing' });
    const [link] = await t.database.db.select().from(identities).where(and(eq(identities.profile_id, user.id), eq(identities.provider, 'google')));
    expect(link).toBeTruthy();
    const pw = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(pw.statusCode).toBe(200);
  });

  it('takes over a registration never verified: verified now, the unknown password dropped', async () => {
    const body = registration();
    expect((await t.request({ method: 'POST', url: '/api/auth/register', payload: body })).statusCode).toBe(200);
    oidc.signInAs({ sub: `g-${body.email}`, email: body.email, email_verified: true, name: 'Owner' });
    const { landing } = await signInThrough(base, 'google');
    expect((await exchange(t, landing.searchParams.get('token')!)).statusCode).toBe(200);
    const [p] = await t.database.db.select().from(profiles).where(eq(profiles.email, body.email));
    expect(p!.email_verified_at).not.toBeNull();
    expect(p!.password_hash).toBeNull();
  });

  it('refuses an e-mail the provider has not verified', async () => {
    oidc.signInAs({ sub: 'g-unverified', email: uniqueEmail('unverified'), email_verified: false, name: 'Nope' });
    const { landing } = await signInThrough(base, 'google');
    expect(landing.pathname).toBe('/login');
    expect(Object.fromEntries(landing.searchParams)).toEqual({ error: 'oauth_email_required', provider: 'google' });
  });

  it('refuses a callback whose state is unknown or replayed', async () => {
    oidc.signInAs({ sub: 'g-state', email: uniqueEmail('state'), email_verified: true });
    const browser = new Browser();
    const { callback } = await startAtProvider(browser, base, 'google');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state');
    const bad = await browser.open(forged.toString());
    expect(location(bad)).toBe('/login?error=oauth_failed&provider=google');
    // The forged attempt cleared the cookie: the real flow now fails in this browser too.
    expect(location(await browser.open(callback.toString()))).toBe('/login?error=oauth_failed&provider=google');
    const again = await startAtProvider(browser, base, 'google');
    expect(location(await browser.open(again.callback.toString()))).toMatch(/^\/\?token=/);
    // Replayed: the state is gone.
    expect(location(await browser.open(again.callback.toString()))).toBe('/login?error=oauth_failed&provider=google');
  });

  it('comes back to /login when the user cancels at the provider', async () => {
    const res = await new Browser().open(`${base}/api/auth/google/callback?error=access_denied&state=whatever`);
    expect(res.status).toBe(302);
    expect(location(res)).toBe('/login?error=oauth_cancelled&provider=google');
  });

  it('refuses an expired ticket and a made-up one', async () => {
    oidc.signInAs({ sub: 'g-late', email: uniqueEmail('late'), email_verified: true });
    const ticket = (await signInThrough(base, 'google')).landing.searchParams.get('token')!;
    await t.database.db.update(oneTimeCodes).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(oneTimeCodes.purpose, 'oauth_ticket'));
    expect((await exchange(t, ticket)).statusCode).toBe(401);
    expect((await exchange(t, 'made-up')).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/auth/exchange', payload: {} })).statusCode).toBe(400);
  });
});

describe('Facebook (OAuth 2.0 code flow) against a provider on loopback', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    ({ t, base } = await listeningApp({
      ...facebookAt(oidc),
    }));
  });
  afterAll(async () => { await t?.close(); });

  it('runs the code flow with state and PKCE and signs in by the Facebook identity once the address confirms', async () => {
    const email = uniqueEmail('facebook');
    oidc.signInAs({ sub: `fb-${email}`, email, name: 'Félix Nze' });
    const browser = new Browser();
    const { authorize, landing: waiting } = await signInThrough(base, 'facebook', browser);
    expect(authorize.searchParams.get('client_id')).toBe('fb-client');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${base}/api/auth/facebook/callback`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(waiting.pathname + waiting.search).toBe('/login?error=oauth_confirm_email&provider=facebook');
    const landing = new URL(location(await browser.open(await mailedConfirmLink(t, email))), base);
    const { token } = (await exchange(t, landing.searchParams.get('token')!)).json();
    const me = (await t.request({ method: 'GET', url: '/api/profiles/me', token })).json().data;
    expect(me).toMatchObject({ email, full_name: 'Félix Nze', role: 'user' });
    const [link] = await t.database.db.select().from(identities).where(eq(identities.subject, `fb-${email}`));
    expect(link).toMatchObject({ provider: 'facebook', profile_id: me.id });
  });

  it('needs an e-mail from Facebook to create an account', async () => {
    oidc.signInAs({ sub: 'fb-no-email', name: 'No Email' });
    const { landing } = await signInThrough(base, 'facebook');
    expect(landing.pathname + landing.search).toBe('/login?error=oauth_email_required&provider=facebook');
  });

  it('leaves Google unavailable when it is not configured', async () => {
    const res = await new Browser().open(`${base}/api/auth/google`);
    expect(res.status).toBe(302);
    expect(location(res)).toBe('/login?error=oauth_unavailable&provider=google');
  });
});

describe('providers not configured', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t?.close(); });

  it('sends both buttons back to /login with the reason', async () => {
    for (const provider of ['google', 'facebook']) {
      for (const path of [`/api/auth/${provider}`, `/api/auth/${provider}/callback?code=x&state=y`]) {
        const res = await t.request({ method: 'GET', url: path });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe(`/login?error=oauth_unavailable&provider=${provider}`);
      }
    }
  });
});
