import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '@server/context.js';
import type { Lang } from '@server/i18n.js';
import { sendAccountMail } from '../mail/service.js';
import { LIMITS, enforceLimits } from './limits.js';
import { type Provider, type ProviderIdentity, OAuthError, profileForIdentity } from './oauth.js';
import { browserHash, clearBrowserBinding, newBrowserBinding, sameBrowser } from './oauth-browser.js';
import * as repo from './repo.js';
import { randomToken, sha256 } from './tokens.js';

// A provider that does not vouch for an address (Facebook: the Graph API says nothing of whether
// the e-mail was confirmed) proves no mailbox. Its identity is linked, to a new account or to the
// one with that address, only once a link mailed there is opened in the browser that signed in:
// the same proof a password reset takes. Until then nothing is created or linked.

const LINK_TTL_MS = 30 * 60_000;
/** The confirmation has a cookie of its own, distinct from the provider flow's (cleared at the callback). */
const COOKIE = 'confirm';
/** How a provider is named to people (e-mails, the API's docs). */
export const PROVIDER_NAMES: Record<Provider, string> = { google: 'Google', facebook: 'Facebook' };

interface PendingLink {
  provider: Provider;
  subject: string;
  name: string | null;
  lang: Lang;
  browser: string;
}

/** Mails a confirmation link for `identity` and binds it to this browser. */
export async function requestConfirmation(
  ctx: AppContext, reply: FastifyReply, provider: Provider, identity: ProviderIdentity & { email: string }, lang: Lang,
): Promise<void> {
  // Each confirmation is an e-mail to an address the provider's user chose.
  await enforceLimits(ctx, reply, [[LIMITS.oauthConfirmAccount, identity.email]]);
  const binding = newBrowserBinding(ctx.config, COOKIE, LINK_TTL_MS);
  const token = randomToken(32);
  const pending: PendingLink = { provider, subject: identity.subject, name: identity.name, lang, browser: binding.hash };
  await ctx.db.transaction(async (tx) => {
    // Only the newest link of a provider account works.
    await repo.revokeLiveLinks(tx, provider, identity.subject);
    await repo.insertSecret(tx, { purpose: 'oauth_link', email: identity.email, profileId: null, hash: sha256(token), ttlMs: LINK_TTL_MS, payload: pending });
  });
  const link = `${ctx.config.publicUrl}/api/auth/${provider}/confirm?${new URLSearchParams({ token })}`;
  await sendAccountMail(ctx, lang, identity.email, identity.name, {
    kind: 'confirmSignIn', link, minutes: LINK_TTL_MS / 60_000, provider: PROVIDER_NAMES[provider],
  });
  reply.header('set-cookie', binding.cookie);
}

/**
 * The mailed link, opened: in the browser that signed in, it links the provider identity to the
 * address (proven now) and returns the profile; anywhere else, or used or expired, it fails.
 */
export async function confirmSignIn(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, provider: Provider, token: string): Promise<repo.ProfileRow> {
  const row = await repo.findLiveByHash(ctx.db, 'oauth_link', sha256(token));
  const pending = row?.payload as PendingLink | undefined;
  // Another browser leaves the link usable where it belongs.
  if (!row || pending?.provider !== provider || !sameBrowser(browserHash(request, COOKIE), pending.browser)) throw new OAuthError('oauth_link_invalid');
  if (!(await repo.consumeSecret(ctx.db, row.id))) throw new OAuthError('oauth_link_invalid');
  clearBrowserBinding(reply, ctx.config, COOKIE);
  const identity = { subject: pending.subject, email: row.email, emailVerified: true, name: pending.name };
  return profileForIdentity(ctx, provider, identity, pending.lang);
}
