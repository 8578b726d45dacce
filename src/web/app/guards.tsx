import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, PageShell } from '../components/page';
import { Button } from '../components/ui/button';
import { LoadingState } from '../components/ui/spinner';
import { isStaff, useSession, type SessionUser } from '../lib/session';
import { RouteHeadingPlaceholder } from '../components/route-heading';

/** Signed-in routes: signed out (once the initial check is done) → /login, remembering where they were going. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const location = useLocation();
  // A page with a heading keeps it on screen from the HTML the server sent until it draws itself.
  if (loading) return <RouteHeadingPlaceholder path={location.pathname} otherwise={<LoadingState />} />;
  if (!user) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
  return <SecondFactorFirst user={user}>{children}</SecondFactorFirst>;
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
  return <SecondFactorFirst user={user}>{children}</SecondFactorFirst>;
}

/**
 * A staff session opened without the second factor reaches nothing but its own account on the
 * server (docs/rules/accounts.md#two-step-sign-in), so its pages wait for it: an account not yet
 * enrolled sets it up at /two-step; one enrolled since this session opened signs in again.
 */
function SecondFactorFirst({ user, children }: { user: SessionUser; children: ReactNode }) {
  const location = useLocation();
  if (!isStaff(user) || user.mfa_verified) return <>{children}</>;
  if (user.totp_enabled) return <SignInAgain />;
  if (location.pathname === '/two-step') return <>{children}</>;
  return <Navigate to="/two-step" replace state={{ from: `${location.pathname}${location.search}` }} />;
}

function SignInAgain() {
  const { t } = useTranslation('common');
  const { logout } = useSession();
  const [busy, setBusy] = useState(false);
  return (
    <PageShell width="narrow">
      <PageHeader title={t('secondFactor.title')} description={t('secondFactor.body')} />
      <Button disabled={busy} onClick={() => { setBusy(true); void logout('/login'); }} data-testid="sign-in-again">
        {t('secondFactor.signInAgain')}
      </Button>
    </PageShell>
  );
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
