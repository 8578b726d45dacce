import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders `children` from the first time `open` is true on, inside a Suspense that shows nothing
 * meanwhile: a lazily loaded dialog's code is fetched when it is first opened, not with the page
 * that may open it (Radix's dialog and the forms inside are not needed to show the page). Kept
 * once opened, so closing it is the dialog's own business.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
