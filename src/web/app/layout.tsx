import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigationType } from 'react-router';
import { useTranslation } from 'react-i18next';
import { X } from '../components/icons';
import { LogOut, Menu, UserRound } from './icons';
import { Button } from '../components/ui/button';
import { LoadingState } from '../components/ui/spinner';
import { Toaster } from '../components/ui/toaster';
import { cn } from '../lib/utils';
import { LanguageSwitcher } from './language-switcher';
import { useDocumentMeta } from './page-meta';
import { displayName, isStaff, useSession } from '../lib/session';
import { Logo } from './logo';
import { ErrorBoundary } from './route-error';

// Signed in only: a visitor's pages load none of it.
const EmailLanguageSync = lazy(() => import('./email-language-sync').then((m) => ({ default: m.EmailLanguageSync })));

interface NavItem {
  to: string;
  label: string;
  end?: boolean;
}

/** Header links: public pages for all; dashboard, transfer and history signed in; admin for staff. */
function useNavItems(): NavItem[] {
  const { t } = useTranslation('common');
  const { user } = useSession();
  const items: NavItem[] = [
    { to: '/', label: t('nav.home'), end: true },
    { to: '/fees', label: t('nav.fees') },
    { to: '/faq', label: t('nav.faq') },
  ];
  if (user) {
    items.push(
      { to: '/dashboard', label: t('nav.dashboard') },
      { to: '/transfer', label: t('nav.transfer') },
      { to: '/history', label: t('nav.history') },
    );
    if (isStaff(user)) items.push({ to: '/admin', label: t('nav.admin') });
  }
  return items;
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium transition-colors',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-muted hover:text-foreground',
  );

function AccountActions({ mobile = false, onNavigate }: { mobile?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation('common');
  const { user, loading, logout } = useSession();
  if (loading) return null;
  if (user) {
    const name = displayName(user, t('user.fallback'));
    return (
      <div className={cn('flex gap-2', mobile ? 'flex-col items-stretch' : 'items-center')}>
        <Button asChild variant="outline" size={mobile ? 'default' : 'sm'} className={cn(!mobile && 'max-w-44')}>
          <Link to="/profile" onClick={onNavigate} data-testid={mobile ? 'mobile-profile-button' : 'profile-button'} title={t('nav.profileOf', { name })}>
            <UserRound aria-hidden />
            <span className="sr-only">{t('nav.profile')}: </span>
            <span className="truncate" data-testid={mobile ? 'mobile-user-name' : 'user-name'}>
              {name}
            </span>
          </Link>
        </Button>
        <Button
          variant="ghost"
          size={mobile ? 'default' : 'sm'}
          data-testid={mobile ? 'mobile-logout-button' : 'logout-button'}
          onClick={() => {
            onNavigate?.();
            void logout();
          }}
        >
          <LogOut aria-hidden />
          {t('nav.logout')}
        </Button>
      </div>
    );
  }
  return (
    <div className={cn('flex gap-2', mobile ? 'flex-col items-stretch' : 'items-center')}>
      <Button asChild variant="ghost" size={mobile ? 'default' : 'sm'}>
        <Link to="/login" onClick={onNavigate}>
          {t('nav.login')}
        </Link>
      </Button>
      <Button asChild size={mobile ? 'default' : 'sm'}>
        <Link to="/register" onClick={onNavigate}>
          {t('nav.register')}
        </Link>
      </Button>
    </div>
  );
}

function Header() {
  const { t } = useTranslation('common');
  const items = useNavItems();
  const { user } = useSession();
  // Signed in, the header holds twice as many links: the full bar needs an xl screen.
  const wide = user !== null;
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const menuId = useId();

  // Close the mobile menu on navigation and on Escape.
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        document.getElementById(`${menuId}-toggle`)?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, menuId]);

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="mr-2 flex shrink-0 items-center gap-2 rounded-md" aria-label={t('nav.homeAria', { app: t('app.name') })}>
          <Logo />
        </Link>
        <nav aria-label={t('nav.main')} className={cn('hidden min-w-0 flex-1', wide ? 'xl:block' : 'lg:block')}>
          <ul className="flex items-center gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end} className={navLinkClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <LanguageSwitcher />
          <div className={cn('hidden', wide ? 'xl:block' : 'lg:block')}>
            <AccountActions />
          </div>
          <button
            id={`${menuId}-toggle`}
            type="button"
            data-testid="mobile-menu-toggle"
            className={cn(
              'inline-flex size-10 items-center justify-center rounded-md border border-input bg-white text-slate-800 hover:bg-muted',
              wide ? 'xl:hidden' : 'lg:hidden',
            )}
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <X aria-hidden className="size-5" /> : <Menu aria-hidden className="size-5" />}
          </button>
        </div>
      </div>
      <div id={menuId} hidden={!open} className={cn('border-t border-border bg-white', wide ? 'xl:hidden' : 'lg:hidden')} data-testid="mobile-menu">
        <nav aria-label={t('nav.mobile')} className="mx-auto max-w-7xl px-4 py-3 sm:px-6">
          <ul className="flex flex-col gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end} className={(s) => cn(navLinkClass(s), 'block py-2.5 text-base')} onClick={() => setOpen(false)}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="mt-3 border-t border-border pt-3">
            <AccountActions mobile onNavigate={() => setOpen(false)} />
          </div>
        </nav>
      </div>
    </header>
  );
}

function Footer() {
  const { t } = useTranslation('common');
  const links = [
    { to: '/fees', label: t('nav.fees') },
    { to: '/faq', label: t('nav.faq') },
    { to: '/support', label: t('nav.support') },
    { to: '/privacy', label: t('nav.privacy') },
    { to: '/terms', label: t('nav.terms') },
    { to: '/compliance', label: t('nav.compliance') },
  ];
  return (
    <footer className="mt-auto border-t border-border bg-slate-50">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1.2fr_1fr] lg:px-8">
        <div className="max-w-md">
          <Logo />
          <p className="mt-3 text-sm text-slate-700">{t('footer.tagline')}</p>
          <p className="mt-2 text-sm text-slate-700">{t('footer.support')}</p>
        </div>
        <nav aria-label={t('nav.footer')}>
          <ul className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-3">
            {links.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="inline-block py-1 text-sm text-slate-700 underline-offset-4 hover:text-brand-800 hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-border">
        <p className="mx-auto max-w-7xl px-4 py-4 text-xs text-slate-600 sm:px-6 lg:px-8">
          {t('footer.rights', { year: new Date().getFullYear(), app: t('app.name') })}
        </p>
      </div>
    </footer>
  );
}

/** New page: scroll to the top (or to the #hash); back/forward keeps the browser's position. */
function useScrollOnNavigate(): void {
  const { pathname, hash } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type === 'POP') return;
    if (hash) {
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
      return;
    }
    window.scrollTo(0, 0);
  }, [pathname, hash, type]);
}

export function AppLayout() {
  const { t } = useTranslation('common');
  const { pathname } = useLocation();
  const { user } = useSession();
  useDocumentMeta();
  useScrollOnNavigate();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 text-sm font-medium text-brand-800 shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        {t('nav.skip')}
      </a>
      <Header />
      {/* At least a screen tall: a page still loading its data is short, and the footer it let into
          view would be pushed out again when the data came (a layout shift Lighthouse counts). */}
      <main id="main" tabIndex={-1} className="min-h-[calc(100dvh-4rem)] flex-1 focus:outline-none">
        <ErrorBoundary resetKey={pathname}>
          {/* The fallback fills the screen so the footer never jumps up and back (layout shift). */}
          <Suspense fallback={<LoadingState className="min-h-[calc(100dvh-4rem)] items-start pt-24" />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      <Toaster />
      {user ? <Suspense fallback={null}><EmailLanguageSync /></Suspense> : null}
    </div>
  );
}
