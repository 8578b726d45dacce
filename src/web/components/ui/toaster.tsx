import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from './toast';

// The cards load on the first toast: they are not needed to show a page (home page budget).
const ToastCard = lazy(() => import('./toast-view'));

/** Renders the open toast(s). Mounted once, at the root. */
export function Toaster() {
  const { toasts } = useToast();
  const { t } = useTranslation('common');
  const open = toasts.filter((x) => x.open);
  // On phones toasts drop over the top of the screen (the sticky header): at the bottom they sat
  // on the field being typed in above the keyboard, the proof card and dialog buttons. On wider
  // screens they sit in the bottom-right corner, beside the content column.
  return (
    <div
      role="region"
      aria-label={t('toast.region')}
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] flex flex-col items-center p-2 sm:inset-x-auto sm:bottom-4 sm:right-4 sm:top-auto sm:items-end sm:p-0"
    >
      {/* Two live regions: polite for information, assertive for errors. */}
      <div role="status" aria-live="polite" aria-atomic="true" className="flex w-full flex-col items-center gap-2 sm:items-end">
        <Suspense fallback={null}>
          {open.filter((x) => x.variant !== 'destructive').map((x) => <ToastCard key={x.id} item={x} />)}
        </Suspense>
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true" className="flex w-full flex-col items-center gap-2 sm:items-end">
        <Suspense fallback={null}>
          {open.filter((x) => x.variant === 'destructive').map((x) => <ToastCard key={x.id} item={x} />)}
        </Suspense>
      </div>
    </div>
  );
}
