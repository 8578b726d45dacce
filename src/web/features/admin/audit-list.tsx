import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card } from '@web/components/ui/card';
import { LoadingState } from '@web/components/ui/spinner';
import { formatDateTime } from '@web/lib/format';
import type { AuditEntry, Details } from './admin-api';

const SHOWN = ['value', 'direction', 'percentage', 'min_amount', 'max_amount', 'min_fee', 'role'];

function summary(d: Details | null): string {
  if (!d) return '—';
  return SHOWN.filter((k) => d[k] !== undefined).map((k) => `${k}: ${d[k] === null ? '∞' : String(d[k])}`).join(', ');
}

/** "Who changed what and when" for rates and fee tiers. */
export function AuditList({ title, query }: { title: string; query: UseQueryResult<AuditEntry[]> }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <section aria-label={title}>
      <h3 className="mb-2 font-semibold">{title}</h3>
      {query.isPending ? <LoadingState className="py-4" /> : !query.data?.length ? (
        <p className="text-sm text-muted-foreground">{t('audit.empty')}</p>
      ) : (
        <Card className="divide-y divide-border">
          {query.data.map((a) => (
            <div key={a.id} className="p-3 text-sm">
              <p>
                <span className="font-medium">{t(`audit.actions.${a.action.replace('.', '_')}`, { defaultValue: a.action })}</span>
                {a.target_type === 'rate' ? ` ${a.target_id}` : ''}{' · '}
                <span className="text-muted-foreground">{a.actor.full_name || a.actor.email || a.actor.profile_id} · {formatDateTime(a.created_at, lng)}</span>
              </p>
              <p className="text-muted-foreground">{summary(a.before)} → {summary(a.after)}</p>
            </div>
          ))}
        </Card>
      )}
    </section>
  );
}
