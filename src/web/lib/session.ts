import { createContext, useContext } from 'react';
import type { MyProfile } from '@core/api/profiles';

// The session as features see it; app/session-provider.tsx signs in and out and provides it.

export type { Role } from '@core/status';

/** The signed-in user's profile, as GET /api/profiles/me returns it in `data`. */
export type SessionUser = MyProfile;

export interface Session {
  user: SessionUser | null;
  token: string | null;
  /** True until the initial token check (ticket exchange, profile load) is done. */
  loading: boolean;
  /** Stores the token and loads the profile; resolves with the user (null if the token is refused). */
  login: (token: string) => Promise<SessionUser | null>;
  /** Revokes the session on the server (failure ignored), clears it here and goes to `to` (/ by default). */
  logout: (to?: string) => Promise<void>;
  /** Reloads the profile (e.g. after the profile page saved changes). */
  refresh: () => Promise<SessionUser | null>;
}

export const SessionContext = createContext<Session | null>(null);

/** The name shown for a user: full name, else e-mail, else the word "User" (translated by the caller). */
export function displayName(user: Pick<SessionUser, 'full_name' | 'email'> | null | undefined, fallback: string): string {
  return user?.full_name?.trim() || user?.email?.trim() || fallback;
}

export function isStaff(user: SessionUser | null | undefined): boolean {
  return user?.role === 'admin' || user?.role === 'manager';
}

export function useSession(): Session {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession must be used inside <SessionProvider>');
  return ctx;
}

/**
 * Where a sign-in goes: where it was headed, except that staff without two-step sign-in set it up
 * first (docs/rules/accounts.md#two-step-sign-in): the back office refuses them until then.
 */
export function afterSignIn(user: SessionUser | null, returnTo: string): [string, { state?: { from: string } }] {
  if (user && isStaff(user) && !user.totp_enabled) return ['/two-step', { state: { from: returnTo === '/' ? '/admin' : returnTo } }];
  return [returnTo, {}];
}

/**
 * A signed-in sender's limits' arithmetic (@core/kyc), loaded only when asked (the home page's
 * calculator, signed in). Asked from here, in the app shell, which already names the file it is
 * in and what that file needs: the home page's code does not carry that list again
 * (docs/decisions/005-web-shell-budget.md).
 */
export const loadLimits = () => import('@core/kyc');
