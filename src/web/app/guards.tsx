import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingState } from '../components/ui/spinner';
import { isStaff, useSession } from '../lib/session';

/** Signed-in routes: signed out (once the initial check is done) → /login, remembering where they were going. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const location = useLocation();
  if (loading) return <LoadingState />;
  if (!user) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
  return <>{children}</>;
}

/**
 * /admin: admin and manager (docs/rules/accounts.md#roles); signed out → /login; anyone else → /;
 * staff without two-step sign-in → /two-step.
 */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const location = useLocation();
  if (loading) return <LoadingState />;
  if (!user) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  if (!isStaff(user)) return <Navigate to="/" replace />;
  // Staff set up two-step sign-in before the back office (D12): the server refuses them until then.
  if (!user.totp_enabled) return <Navigate to="/two-step" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return <>{children}</>;
}

/**
 * /login and /register: a user already signed in when arriving is sent to /dashboard.
 * A sign-in that happens ON the page is left to the page (it shows its success message and
 * navigates itself).
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { loading } = useSession();
  if (loading) return <LoadingState />;
  return <GuestDecision>{children}</GuestDecision>;
}

function GuestDecision({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const [signedInOnArrival] = useState(() => user !== null);
  if (signedInOnArrival) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
