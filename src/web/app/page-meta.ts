import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { i18n as I18n, TFunction } from 'i18next';
import { routeFor } from '@core/routes';

/** Which `common:meta.*` entry titles the page at `pathname` (src/core/routes.ts). Unknown paths use notFound. */
export function metaKeyFor(pathname: string): string {
  return routeFor(pathname).meta;
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

/** A route's document title and meta description in the current language (also used by src/web/prerender.tsx). */
export function routeMeta(key: string, t: TFunction, i18n: I18n): { title: string; description: string } {
  const app = t('app.name');
  const page = key === 'home' ? null : t(`meta.${key}.title`);
  const description = i18n.exists(`meta.${key}.description`, { ns: 'common' }) ? t(`meta.${key}.description`) : t('app.description');
  return { title: page ? t('meta.titleFormat', { page, app }) : t('app.title'), description };
}

function apply(key: string, t: TFunction, i18n: I18n): void {
  const { title, description } = routeMeta(key, t, i18n);
  document.title = title;
  setMetaDescription(description);
}

/**
 * document.title and meta description follow the route and the language. Mounted once,
 * in the layout; titles come from `common:meta.{route}.title`.
 */
export function useDocumentMeta(): void {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation('common');
  const key = metaKeyFor(pathname);
  useEffect(() => apply(key, t, i18n), [key, t, i18n, i18n.resolvedLanguage]);
}

