import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identities, mailOutbox, profiles } from '@server/db/schema.js';
import { createUser } from '../support/factories.js';
import { OidcProvider } from '../support/oidc-provider.js';
import type { TestApp } from '../support/test-app.js';
import { registration, uniqueAddress, uniqueEmail } from './auth-fixtures.js';
import { Browser, facebookAt, listeningApp, location, mailedConfirmLink, signInThrough } from './oauth-fixtures.js';

// Facebook does not say whether the e-mail it returns was confirmed: an address from Facebook
// proves no mailbox until a link mailed there is opened in the browser that signed in.

let oidc: OidcProvider;
let t: TestApp;
let base: string;
beforeAll(async () => {
  oidc = await new OidcProvider().start();
  ({ t, base } = await listeningApp({
    ...facebookAt(oidc),
  }));
});
afterAll(async () => {
  await t?.close();
  await oidc?.stop();
});

const exchange = async (ticket: string | null) => (await t.request({ method: 'POST', url: '/api/auth/exchange', payload: { ticket } })).json().token as string;
const me = async (token: string) => (await t.request({ method: 'GET', url: '/api/profiles/me', token })).json().data;
const linksOf = (subject: string) => t.database.db.select().from(identities).where(eq(identities.subject, subject));
const landingOf = async (res: Response) => new URL(location(res), base);
const WAITING = '/login?error=oauth_confirm_email&provider=facebook';

describe('an address from Facebook', () => {
  it('never signs into an existing account by itself: the owner\'s mailbox is asked', async () => {
    const owner = await createUser(t, { role: 'manager', full_name: 'Owner' });
    // Someone's Facebook account claims the owner's address.
    oidc.signInAs({ sub: `fb-intruder-${owner.id}`, email: owner.email, name: 'Intruder' });
    const intruder = new Browser();
    const { landing } = await signInThrough(base, 'facebook', intruder);
    expect(landing.pathname + landing.search).toBe(WAITING);
    expect(landing.searchParams.get('token')).toBeNull();
    expect(await linksOf(`fb-intruder-${owner.id}`)).toEqual([]);
    await t.jobsDone();
    const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner.email));
    expect(mail!.subject).toMatch(/with Facebook$/);

    // The owner opens the mailed link in their own browser: nothing is linked, nobody signed in.
    const link = await mailedConfirmLink(t, owner.email);
    expect(location(await new Browser().open(link))).toBe('/login?error=oauth_link_invalid&provider=facebook');
    expect(await linksOf(`fb-intruder-${owner.id}`)).toEqual([]);
  });

  it('links an existing account once its owner confirms in the browser that signed in', async () => {
    const owner = await createUser(t, { role: 'manager', full_name: 'Owner' });
    oidc.signInAs({ sub: `fb-owner-${owner.id}`, email: owner.email, name: 'Other' });
    const browser = new Browser();
    expect((await signInThrough(base, 'facebook', browser)).landing.pathname).toBe('/login');
    const link = await mailedConfirmLink(t, owner.email);
    const landing = await landingOf(await browser.open(link));
    expect(landing.pathname).toBe('/');
    expect(await me(await exchange(landing.searchParams.get('token')))).toMatchObject({ id: owner.id, role: 'manager', full_name: 'Owner' });
    // Used once; from now on Facebook signs straight in.
    expect(location(await browser.open(link))).toBe('/login?error=oauth_link_invalid&provider=facebook');
    const again = await signInThrough(base, 'facebook');
    expect(await me(await exchange(again.landing.searchParams.get('token')))).toMatchObject({ id: owner.id });
  });

  it('creates no account until the address confirms, so it cannot squat a stranger\'s address', async () => {
    const email = uniqueEmail('squatted');
    oidc.signInAs({ sub: `fb-squatter-${email}`, email, name: 'Squatter' });
    expect((await signInThrough(base, 'facebook')).landing.pathname).toBe('/login');
    expect(await t.database.db.select().from(profiles).where(eq(profiles.email, email))).toEqual([]);

    // The address's owner signs up and verifies; the squatter's Facebook is still asked to confirm.
    const body = registration({ email });
    expect((await t.request({ method: 'POST', url: '/api/auth/register', payload: body, headers: { 'x-forwarded-for': uniqueAddress() } })).statusCode).toBe(200);
    await t.jobsDone();
    const [code] = await t.database.db.select().from(mailOutbox).where(sql`${mailOutbox.to} = ${email} and ${mailOutbox.subject} like '%verification code'`);
    const otp = /\b(\d{6})\b/.exec(code!.text)![1];
    expect((await t.request({ method: 'POST', url: '/api/auth/verify-otp', payload: { email, otp } })).statusCode).toBe(200);
    const retry = await signInThrough(base, 'facebook');
    expect(retry.landing.pathname + retry.landing.search).toBe(WAITING);
    expect(await linksOf(`fb-squatter-${email}`)).toEqual([]);
  });

  it('mails at most five confirmations an hour to one address', async () => {
    const email = uniqueEmail('flooded');
    oidc.signInAs({ sub: `fb-flood-${email}`, email, name: 'Flood' });
    for (let i = 0; i < 5; i++) expect((await signInThrough(base, 'facebook')).landing.searchParams.get('error')).toBe('oauth_confirm_email');
    expect((await signInThrough(base, 'facebook')).landing.searchParams.get('error')).toBe('oauth_rate_limited');
    await t.jobsDone();
    expect(await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).toHaveLength(5);
  });

  it('refuses a made-up link, and a missing one is a bad request', async () => {
    expect(location(await new Browser().open(`${base}/api/auth/facebook/confirm?token=made-up`))).toBe('/login?error=oauth_link_invalid&provider=facebook');
    expect((await t.request({ method: 'GET', url: '/api/auth/facebook/confirm' })).statusCode).toBe(400);
  });
});
