import { useTranslation } from 'react-i18next';
import { useAppConfig } from '@web/lib/queries';
import { cn } from '@web/lib/utils';

/** The support address from GET /api/config, as a mailto link (SUPPORT_EMAIL on the server). */
export function SupportEmail({ className }: { className?: string }) {
  const { t } = useTranslation('public');
  const config = useAppConfig();
  if (config.isPending) {
    return (
      <span role="status" className={cn('inline-block h-4 w-40 animate-pulse rounded bg-slate-200 align-middle', className)}>
        <span className="sr-only">{t('common:states.loading')}</span>
      </span>
    );
  }
  const email = config.data?.support_email;
  if (!email) return <span className={className}>{t('support.emailUnknown')}</span>;
  return (
    <a href={`mailto:${email}`} className={cn('font-medium break-all text-brand-800 underline underline-offset-4 hover:text-brand-900', className)} data-testid="support-email">
      {email}
    </a>
  );
}

/** The address as text for sentences (falls back to a phrase when the config is unavailable). */
export function useSupportEmailText(): string {
  const { t } = useTranslation('public');
  const config = useAppConfig();
  return config.data?.support_email ?? t('support.emailUnknown');
}
