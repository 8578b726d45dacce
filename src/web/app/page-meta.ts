import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Which `common:meta.*` entry titles each route. Unknown paths use notFound. */
export function metaKeyFor(pathname: string): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  const map: Record<string, string> = {
    '/': 'home',
    '/fees': 'fees',
    '/faq': 'faq',
    '/support': 'support',
    '/privacy': 'privacy',
    '/terms': 'terms',
    '/compliance': 'compliance',
    '/login': 'login',
    '/register': 'register',
    '/reset-password': 'resetPassword',
    '/dashboard': 'dashboard',
    '/transfer': 'transfer',
    '/history': 'history',
    '/profile': 'profile',
    '/admin': 'admin',
    '/dev/outbox': 'outbox',
  };
  if (map[path]) return map[path];
  if (/^\/pay\/[^/]+$/.test(path)) return 'payment';
  return 'notFound';
}

function setMetaDescription(content: string): void {
  let el = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!el) {
    el = document.createElement('meta');
    el.name = 'description';
    document.head.appendChild(el);
  }
  el.content = content;
}

/** document.title and meta description follow the route and the language (spec §1). */
export function useDocumentMeta(): void {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation('common');
  const key = metaKeyFor(pathname);
  useEffect(() => {
    const app = t('app.name');
    const title = key === 'home' ? t('app.title') : t('meta.titleFormat', { page: t(`meta.${key}.title`), app });
    document.title = title;
    const description = i18n.exists(`meta.${key}.description`, { ns: 'common' }) ? t(`meta.${key}.description`) : t('app.description');
    setMetaDescription(description);
  }, [key, t, i18n, i18n.resolvedLanguage]);
}
