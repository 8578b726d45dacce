import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { icon, X } from '../icons';
import { cn } from '@web/lib/utils';
import { dismissToast, type ToastItem, type ToastVariant } from './toast';

// Drawn here: this view loads on the first toast, so the home page does not carry them.
const CircleCheck = icon(<><circle cx="12" cy="12" r="10" /><path d="m16 9-5.5 5.5L8 12" /></>);
const CircleAlert = icon(<><circle cx="12" cy="12" r="10" /><line x1="12" x2="12" y1="8" y2="12" /><line x1="12" x2="12.01" y1="16" y2="16" /></>);
const Info = icon(<><circle cx="12" cy="12" r="10" /><path d="M12 16v-4" /><path d="M12 8h.01" /></>);

const variantClass: Record<ToastVariant, string> = {
  default: 'border-border bg-white text-foreground',
  success: 'border-green-300 bg-green-50 text-green-900',
  destructive: 'border-red-300 bg-red-50 text-red-900',
};

const VariantIcon = ({ variant }: { variant: ToastVariant }) => {
  const cls = 'mt-0.5 size-5 shrink-0';
  if (variant === 'success') return <CircleCheck aria-hidden className={cn(cls, 'text-green-700')} />;
  if (variant === 'destructive') return <CircleAlert aria-hidden className={cn(cls, 'text-red-700')} />;
  return <Info aria-hidden className={cn(cls, 'text-brand-700')} />;
};

/** One toast (loaded on demand by <Toaster>); Escape closes it. */
export default function ToastCard({ item }: { item: ToastItem }) {
  const { t } = useTranslation('common');
  const variant = item.variant ?? 'default';
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') dismissToast(item.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [item.id]);
  return (
    <div
      data-testid="toast"
      data-variant={variant}
      className={cn(
        'pointer-events-auto flex w-full max-w-sm animate-toast-in items-start gap-3 rounded-lg border p-4 shadow-lg',
        variantClass[variant],
      )}
    >
      <VariantIcon variant={variant} />
      <div className="min-w-0 flex-1 text-sm">
        {item.title ? <p className="font-semibold">{item.title}</p> : null}
        {item.description ? <p className="mt-1 break-words opacity-90">{item.description}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(item.id)}
        className="-m-1 rounded p-1 opacity-70 hover:opacity-100"
        aria-label={t('actions.close')}
      >
        <X aria-hidden className="size-4" />
      </button>
    </div>
  );
}
