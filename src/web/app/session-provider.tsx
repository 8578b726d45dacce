import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../lib/api';
import { displayName, SessionContext, type Session, type SessionUser } from '../lib/session';
import { endSession, fetchMyProfile } from '../lib/session-api';
import { readToken, writeSenderName, writeToken, TOKEN_KEY } from '../lib/token-store';

/** Where the OAuth callback lands with its ticket; /reset-password?token= is a reset link, not a ticket. */
const TICKET_PATH = '/';

/**
 * Reads `?token=` on the OAuth landing address (a single-use ticket, docs/rules/accounts.md#codes)
 * and the address without it.
 */
function ticketFromAddress(): { ticket: string | null; rest: { pathname: string; search: string; hash: string } } {
  const url = new URL(window.location.href);
  const ticket = url.pathname === TICKET_PATH ? url.searchParams.get('token') : null;
  url.searchParams.delete('token');
  return { ticket, rest: { pathname: url.pathname, search: url.search, hash: url.hash } };
}

/** Drops every cached query (another user's data must not survive a sign-out). Loaded lazily. */
function clearQueryCache(): void {
  void import('../lib/query-client').then((m) => m.queryClient.clear());
}

/** Ticket read once per page load (StrictMode runs effects twice; the exchange must happen once). */
let pendingTicket: Promise<{ token: string } | { mfa: string } | null> | null = null;

export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [token, setToken] = useState<string | null>(() => readToken());
  const [user, setUser] = useState<SessionUser | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);

  /** `inTransition`: the answer's state changes render as a transition (the first check, below). */
  const loadProfile = useCallback(async (tok: string | null, inTransition = false): Promise<SessionUser | null> => {
    const gen = ++generation.current;
    const apply = inTransition ? startTransition : (update: () => void) => update();
    if (!tok) {
      apply(() => setUser(null));
      return null;
    }
    try {
      // The first check takes the boot script's answer (src/web/lib/early-reads.ts).
      const me = await fetchMyProfile({ token: tok });
      if (gen === generation.current) {
        writeSenderName(displayName(me, ''));
        apply(() => setUser(me));
      }
      return me;
    } catch (e) {
      if (gen === generation.current) {
        apply(() => {
          setUser(null);
          if (isApiError(e) && e.status === 401) {
            // The token is expired, revoked or unknown: signed out, silently.
            if (readToken() === tok) writeToken(null);
            setToken(null);
          }
        });
      }
      return null;
    }
  }, []);

  // Initial check: ?token= ticket, else the stored token.
  useEffect(() => {
    let cancelled = false;
    (async () => {
      if (!pendingTicket) {
        const { ticket, rest } = ticketFromAddress();
        pendingTicket = ticket ? import('./ticket-exchange').then((m) => m.exchangeTicket(ticket), () => null) : Promise.resolve(null);
        // Remove the ticket from the address (and from the router's location) at once.
        if (ticket) navigate(rest, { replace: true });
      }
      const answer = await pendingTicket;
      // Two-step sign-in: the provider's sign-in goes on to the code step of the sign-in page.
      if (answer && 'mfa' in answer) navigate('/login', { replace: true, state: { mfaToken: answer.mfa } });
      const exchanged = answer && 'token' in answer ? answer.token : null;
      if (exchanged) writeToken(exchanged);
      const tok = exchanged ?? readToken();
      if (cancelled) return;
      // In transitions: the page that waited for the session then renders in slices, between which
      // the browser stays responsive, instead of in one long task.
      startTransition(() => setToken(tok));
      await loadProfile(tok, true);
      if (!cancelled) startTransition(() => setLoading(false));
    })();
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per page load
  }, []);

  // Another tab signed in or out: follow it.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== null && e.key !== TOKEN_KEY) return;
      const next = readToken();
      setToken(next);
      if (!next) clearQueryCache();
      void loadProfile(next);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [loadProfile]);

  const login = useCallback(
    async (tok: string) => {
      writeToken(tok);
      setToken(tok);
      return loadProfile(tok);
    },
    [loadProfile],
  );

  const refresh = useCallback(() => loadProfile(readToken()), [loadProfile]);

  const logout = useCallback(async (to = '/') => {
    const tok = readToken();
    if (tok) {
      try {
        await endSession(tok);
      } catch {
        /* ignored: the session is cleared here anyway */
      }
    }
    generation.current++;
    writeToken(null);
    clearQueryCache();
    // One transition for both: a signed-in page must not render signed out (and bounce to /login)
    // before the navigation to / lands.
    startTransition(() => {
      setToken(null);
      setUser(null);
      navigate(to);
    });
  }, [navigate]);

  const value = useMemo<Session>(() => ({ user, token, loading, login, logout, refresh }), [user, token, loading, login, logout, refresh]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
