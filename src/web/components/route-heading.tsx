import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { routeFor, type PageHeading } from '@core/routes';
import { readSenderName } from '../lib/token-store';
import { PageHeader, PageShell } from './page';

/** Stands for the sender's name in a translated title, where it is cut to hold the name's element. */
const NAME = '\u0000';

/** The heading of the page at `path` (src/core/routes.ts), or null for a page without one. */
function headingOf(path: string): { heading: PageHeading; namespace: string } | null {
  const route = routeFor(path);
  return route.heading ? { heading: route.heading, namespace: route.namespaces[0]! } : null;
}

/**
 * The page's heading as its route describes it: the page draws it, and so does its loading state.
 * The sender's name, in a title that has one, is an element of its own that the boot script fills
 * in the prerendered HTML; the heading stays hidden while it is empty (styles.css).
 */
export function RouteHeader({ path, name = '', actions }: { path: string; name?: string; actions?: ReactNode }) {
  const found = headingOf(path);
  const { t } = useTranslation(found?.namespace);
  if (!found) throw new Error(`${path} has no heading in src/core/routes.ts`);
  const [before, after] = t(found.heading.title, { name: NAME }).split(NAME);
  const title = after === undefined ? before : <>{before}<span data-sender-name="">{name}</span>{after}</>;
  return <PageHeader title={title} description={t(found.heading.description)} actions={actions} />;
}

/**
 * What a page with a heading shows before it can draw itself (the session being checked, and in
 * the HTML the server sends): its heading, where the page will draw it; `otherwise` for other pages.
 */
export function RouteHeadingPlaceholder({ path, otherwise = null }: { path: string; otherwise?: ReactNode }) {
  const found = headingOf(path);
  if (!found) return <>{otherwise}</>;
  return (
    <PageShell width={found.heading.width}>
      <RouteHeader path={path} name={typeof window === 'undefined' ? '' : (readSenderName() ?? '')} />
    </PageShell>
  );
}
