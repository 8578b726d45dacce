import * as oidc from 'openid-client';
import type { Config } from '@server/config.js';
import type { AppContext } from '@server/context.js';
import type { Lang } from '@server/i18n.js';
import { sameBrowser } from './oauth-browser.js';
import * as repo from './repo.js';

// Sign-in with Google (OpenID Connect, discovered from GOOGLE_ISSUER) and Facebook (the plain
// OAuth 2.0 code flow against FACEBOOK_*_URL), both with state and PKCE; Google with a nonce too.
// The state, verifier and nonce wait in oauth_states (any process can finish the flow), with the
// hash of the starting browser's cookie secret (oauth-browser.ts): only that browser finishes it.

export type Provider = 'google' | 'facebook';
export const PROVIDERS: readonly Provider[] = ['google', 'facebook'];

export const STATE_TTL_MS = 10 * 60_000;

/** Why a sign-in came back to /login: the login page shows the matching message. */
export type OAuthFailure =
  | 'oauth_unavailable' | 'oauth_failed' | 'oauth_cancelled' | 'oauth_email_required' | 'oauth_rate_limited'
  | 'oauth_confirm_email' | 'oauth_link_invalid';

export class OAuthError extends Error {
  constructor(readonly code: OAuthFailure, cause?: unknown) {
    super(code, { cause });
  }
}

/** The identity a provider vouches for. */
export interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

function isConfigured(config: Config, provider: Provider): boolean {
  return provider === 'google'
    ? Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET)
    : Boolean(config.FACEBOOK_CLIENT_ID && config.FACEBOOK_CLIENT_SECRET);
}

const callbackUrl = (config: Config, provider: Provider) => `${config.publicUrl}/api/auth/${provider}/callback`;

/** Plain http is refused by openid-client; it is allowed only for a provider on this machine (tests, local). */
function isLoopbackHttp(url: string): boolean {
  const u = new URL(url);
  return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
}

/** Google's discovered configuration, fetched once per process (again after a failure). */
export class GoogleClient {
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(private readonly config: Config) {}

  configuration(): Promise<oidc.Configuration> {
    if (!this.discovered) {
      const { GOOGLE_ISSUER, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } = this.config;
      this.discovered = oidc.discovery(
        new URL(GOOGLE_ISSUER), GOOGLE_CLIENT_ID!, GOOGLE_CLIENT_SECRET!, undefined,
        isLoopbackHttp(GOOGLE_ISSUER) ? { execute: [oidc.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
      );
      this.discovered.catch(() => { this.discovered = null; });
    }
    return this.discovered;
  }
}

/**
 * The provider's authorization URL for a new sign-in; its state, PKCE verifier and nonce are
 * stored with `browserHash`, the starting browser's.
 */
export async function startSignIn(ctx: AppContext, google: GoogleClient, provider: Provider, browserHash: string): Promise<string> {
  if (!isConfigured(ctx.config, provider)) throw new OAuthError('oauth_unavailable');
  const state = oidc.randomState();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
  const nonce = provider === 'google' ? oidc.randomNonce() : null;
  const redirectUri = callbackUrl(ctx.config, provider);
  let url: URL;
  if (provider === 'google') {
    let configuration: oidc.Configuration;
    try {
      configuration = await google.configuration();
    } catch (err) {
      ctx.log.error({ err }, 'Google discovery failed');
      throw new OAuthError('oauth_failed', err);
    }
    url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri, scope: 'openid email profile', state, nonce: nonce!,
      code_challenge: codeChallenge, code_challenge_method: 'S256',
    });
  } else {
    url = new URL(ctx.config.FACEBOOK_AUTH_URL);
    url.search = new URLSearchParams({
      client_id: ctx.config.FACEBOOK_CLIENT_ID!, redirect_uri: redirectUri, response_type: 'code', scope: 'email public_profile',
      state, code_challenge: codeChallenge, code_challenge_method: 'S256',
    }).toString();
  }
  await repo.storeOAuthState(ctx.db, {
    state, provider, code_verifier: codeVerifier, nonce, browser_hash: browserHash, expires_at: new Date(Date.now() + STATE_TTL_MS),
  });
  return url.toString();
}

/**
 * The provider came back to the callback with `query` in a browser with `browserHash`: the state
 * is consumed (once) and must belong to that browser, the code is exchanged with the PKCE
 * verifier, and the identity read.
 */
export async function finishSignIn(
  ctx: AppContext, google: GoogleClient, provider: Provider, query: Record<string, string | undefined>, browserHash: string | null,
): Promise<ProviderIdentity> {
  if (!isConfigured(ctx.config, provider)) throw new OAuthError('oauth_unavailable');
  if (query.error) throw new OAuthError(query.error === 'access_denied' ? 'oauth_cancelled' : 'oauth_failed');
  if (!query.state || !query.code) throw new OAuthError('oauth_failed');
  const pending = await repo.takeOAuthState(ctx.db, provider, query.state);
  if (!pending || !sameBrowser(browserHash, pending.browser_hash)) throw new OAuthError('oauth_failed');
  try {
    return provider === 'google'
      ? await googleIdentity(ctx, google, pending, query)
      : await facebookIdentity(ctx, pending, query.code);
  } catch (err) {
    if (err instanceof OAuthError) throw err;
    ctx.log.warn({ err, provider }, 'OAuth sign-in failed');
    throw new OAuthError('oauth_failed', err);
  }
}

async function googleIdentity(ctx: AppContext, google: GoogleClient, pending: repo.OAuthStateRow, query: Record<string, string | undefined>) {
  const configuration = await google.configuration();
  const current = new URL(callbackUrl(ctx.config, 'google'));
  for (const [k, v] of Object.entries(query)) if (v !== undefined) current.searchParams.set(k, v);
  const tokens = await oidc.authorizationCodeGrant(configuration, current, {
    pkceCodeVerifier: pending.code_verifier, expectedState: pending.state, expectedNonce: pending.nonce ?? undefined, idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new OAuthError('oauth_failed');
  return {
    subject: claims.sub,
    email: typeof claims.email === 'string' ? claims.email.toLowerCase() : null,
    emailVerified: claims.email_verified === true,
    name: typeof claims.name === 'string' ? claims.name : null,
  };
}

async function facebookIdentity(ctx: AppContext, pending: repo.OAuthStateRow, code: string): Promise<ProviderIdentity> {
  const { config } = ctx;
  const tokenRes = await fetch(config.FACEBOOK_TOKEN_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code', client_id: config.FACEBOOK_CLIENT_ID!, client_secret: config.FACEBOOK_CLIENT_SECRET!,
      redirect_uri: callbackUrl(config, 'facebook'), code, code_verifier: pending.code_verifier,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const tokenBody = (await tokenRes.json().catch(() => null)) as { access_token?: unknown } | null;
  if (!tokenRes.ok || typeof tokenBody?.access_token !== 'string') throw new OAuthError('oauth_failed');
  const me = new URL(config.FACEBOOK_USERINFO_URL);
  me.searchParams.set('fields', 'id,name,email');
  const userRes = await fetch(me, { headers: { Authorization: `Bearer ${tokenBody.access_token}`, Accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
  const user = (await userRes.json().catch(() => null)) as { id?: unknown; sub?: unknown; email?: unknown; name?: unknown } | null;
  const subject = user?.id ?? user?.sub;
  if (!userRes.ok || (typeof subject !== 'string' && typeof subject !== 'number')) throw new OAuthError('oauth_failed');
  // The Graph API has no claim that the address was confirmed: it proves no mailbox here.
  const email = typeof user?.email === 'string' ? user.email.toLowerCase() : null;
  return { subject: String(subject), email, emailVerified: false, name: typeof user?.name === 'string' ? user.name : null };
}

/**
 * Whether an identity needs its address confirmed by mail before it is linked: a Facebook one
 * with an address, not yet linked. (Google's address counts when Google says it is verified.)
 */
export async function needsMailConfirmation(ctx: AppContext, provider: Provider, identity: ProviderIdentity): Promise<boolean> {
  if (provider !== 'facebook' || !identity.email) return false;
  return (await repo.linkedProfile(ctx.db, provider, identity.subject)) === null;
}

/**
 * The profile behind a provider identity: the one already linked, else the one with the same
 * address (verified by the provider, or confirmed by mail), now linked, else a new one (role
 * user). Linking proves the mailbox,
 * so an address never verified here becomes verified, and a password set by whoever registered it
 * unverified is dropped.
 */
export async function profileForIdentity(ctx: AppContext, provider: Provider, identity: ProviderIdentity, lang: Lang): Promise<repo.ProfileRow> {
  const linked = await repo.linkedProfile(ctx.db, provider, identity.subject);
  if (linked) return linked;
  if (!identity.email || !identity.emailVerified) throw new OAuthError('oauth_email_required');
  const email = identity.email;
  return ctx.db.transaction(async (tx) => {
    let profile = await repo.findProfileByEmail(tx, email);
    if (profile && !profile.email_verified_at) {
      profile = await repo.markEmailVerified(tx, profile.id, { password_hash: null });
    } else if (!profile) {
      profile = await repo.insertProfile(tx, { email, full_name: identity.name, role: 'user', language: lang, email_verified_at: new Date() });
    }
    if (!profile) throw new OAuthError('oauth_failed');
    await repo.linkIdentity(tx, profile.id, provider, identity.subject, email);
    return profile;
  });
}
