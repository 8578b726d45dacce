import { useTranslation } from 'react-i18next';
import { cn } from '@web/lib/utils';

/** A decorative spinning ring (aria-hidden). Use {@link LoadingState} for an announced loading state. */
export function Spinner({ className }: { className?: string }) {
  return (
    <span
      aria-hidden
      className={cn('inline-block size-5 animate-spin rounded-full border-2 border-current border-r-transparent', className)}
    />
  );
}

/** A centred, announced loading state ("Loading…"). */
export function LoadingState({ label, className }: { label?: string; className?: string }) {
  const { t } = useTranslation('common');
  return (
    <div role="status" aria-live="polite" className={cn('flex items-center justify-center gap-3 py-12 text-muted-foreground', className)}>
      <Spinner className="text-brand-700" />
      <span className="text-sm">{label ?? t('states.loading')}</span>
    </div>
  );
}
