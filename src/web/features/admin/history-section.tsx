import { useTranslation } from 'react-i18next';
import { Alert } from '@web/components/ui/alert';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { eventKey } from '@web/lib/money-labels';
import type { StaffDetail } from './admin-api';

// A transfer's history in the staff details: each status move and money step, who and when.

export function HistorySection({ detail, error }: { detail: StaffDetail | undefined; error: unknown }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <section aria-labelledby="d-history">
      <h3 id="d-history" className="mb-2 font-semibold">{t('details.history')}</h3>
      {error ? <Alert variant="destructive">{isApiError(error) ? error.message : t('states.error', { ns: 'common' })}</Alert> : null}
      {detail && detail.history.length === 0 ? <p className="text-sm text-muted-foreground">{t('details.noHistory')}</p> : null}
      <ol className="flex flex-col gap-2 border-l-2 border-border pl-4" data-testid="status-history">
        {detail?.history.map((h, i) => (
          <li key={i} className="text-sm">
            <p>
              <span className="font-medium">
                {h.event ? t(`events.${eventKey(h.event)}`) : t('details.step', {
                  from: h.from_status ? t(`status.${h.from_status}`, { ns: 'common' }) : '—',
                  to: t(`status.${h.to_status}`, { ns: 'common' }),
                })}
              </span>{' '}
              <span className="text-muted-foreground">· {formatDateTime(h.created_at, lng)}{h.actor_role ? ` · ${t(`details.actors.${h.actor_role}`, { defaultValue: h.actor_role })}` : ''}</span>
            </p>
            {h.note ? <p className="text-slate-700">{h.note}</p> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
