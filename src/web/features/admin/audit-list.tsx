import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ALERT_STATUSES } from '@core/holds';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { LoadingState } from '@web/components/ui/spinner';
import { formatDateTime } from '@web/lib/format';
import { cn } from '@web/lib/utils';
import type { AuditEntry } from './admin-api';
import { changeSummary, requesterName, type ChangeWords } from './admin-format';

/** An audit action's readable name ("transfer_request.approve" → "Transfer approved"). */
export function useAuditActionLabel(): (action: string) => string {
  const { t } = useTranslation('admin');
  return (action) => t(`audit.actions.${action.replace('.', '_')}`, { defaultValue: action });
}

/** Fields and values of a change in the reader's words: "Role: User → Manager", not "role: user → manager". */
export function useChangeWords(): ChangeWords {
  const { t } = useTranslation(['admin', 'common']);
  return {
    field: (key) => t(`audit.fields.${key}`, { defaultValue: key.replace(/_/g, ' ') }),
    value: (key, value) => {
      if (typeof value === 'boolean') return t(value ? 'audit.yes' : 'audit.no');
      // An identity level in words ("Level 1"), never a bare 0 or 1.
      if ((key === 'level' || key === 'kyc_level') && typeof value === 'number') return t('kycLimits.level', { level: value });
      if (typeof value !== 'string') return null;
      // A screening alert's status or decision ("False positive"), never the code.
      if ((key === 'status' || key === 'decision') && (ALERT_STATUSES as readonly string[]).includes(value)) return t(`compliance.alerts.statuses.${value}`);
      const known = key === 'role' ? `roles.${value}` : key === 'status' || key === 'from_status' || key === 'to_status' ? `status.${value}` : null;
      if (known) return t(known, { ns: 'common', defaultValue: value });
      if (key === 'payment_status') return t(`payment.${value}`, { defaultValue: value });
      if (key === 'payout_status') return t(`payout.${value}`, { defaultValue: value });
      if (key === 'visibility') return t(`thread.visibilities.${value}`, { defaultValue: value });
      return null;
    },
    colon: t('audit.colon'),
  };
}

export interface AuditRowActions {
  /** Shows only this person's actions. */
  onActor?: (actor: { id: string; name: string }) => void;
  /** Shows only the actions on this object. */
  onTarget?: (target: { type: string; id: string; name: string }) => void;
}

/** One audit row: what, on what, who, when, from where, and what changed. */
export function AuditItem({ entry: a, onActor, onTarget }: { entry: AuditEntry } & AuditRowActions) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const actionLabel = useAuditActionLabel();
  const actor = a.actor.profile_id ? requesterName({ ...a.actor, profile_id: a.actor.profile_id }) : t('audit.system');
  const target = t(`audit.targets.${a.target_type}`, { defaultValue: a.target_type });
  const changes = changeSummary(a.before, a.after, useChangeWords());
  // A person by name and e-mail, a transfer by its reference; other objects by their id.
  const targetName = a.target_label ?? a.target_id;
  return (
    <li className="flex min-w-0 flex-col gap-1 p-3 text-sm" data-testid="audit-row">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium text-slate-900">{actionLabel(a.action)}</span>
        <span className="min-w-0 break-words text-muted-foreground">
          {target}{a.target_id ? ' ' : ''}
          {a.target_id && onTarget ? (
            <Button variant="link" className={cn('h-auto whitespace-normal break-all p-0 text-left', a.target_label ? 'text-sm' : 'font-mono text-xs')}
              aria-label={t('audit.onlyTarget', { target, id: targetName })} title={a.target_id} onClick={() => onTarget({ type: a.target_type, id: a.target_id!, name: targetName! })}>
              {targetName}
            </Button>
          ) : <span className={a.target_label ? '' : 'font-mono text-xs'} title={a.target_id ?? undefined}>{targetName}</span>}
        </span>
      </p>
      <p className="text-muted-foreground">
        {a.actor.profile_id && onActor ? (
          <Button variant="link" className="h-auto whitespace-normal p-0 text-left" aria-label={t('audit.onlyActor', { name: actor })}
            onClick={() => onActor({ id: a.actor.profile_id!, name: actor })}>
            {actor}
          </Button>
        ) : actor}
        {' · '}{formatDateTime(a.created_at, lng)}{a.ip ? ` · ${a.ip}` : ''}
      </p>
      {changes.length ? (
        <ul className="break-words text-slate-700" aria-label={t('audit.changes')}>
          {changes.map((c) => <li key={c}>{c}</li>)}
        </ul>
      ) : null}
    </li>
  );
}

/** "Who changed what and when" for one kind of object (rates, fee tiers, users). */
export function AuditList({ title, query }: { title: string; query: UseQueryResult<AuditEntry[]> }) {
  const { t } = useTranslation('admin');
  return (
    <section aria-label={title}>
      <h3 className="mb-2 font-semibold">{title}</h3>
      {query.isPending ? <LoadingState className="py-4" /> : !query.data?.length ? (
        <p className="text-sm text-muted-foreground">{t('audit.empty')}</p>
      ) : (
        <Card>
          <ul className="divide-y divide-border">
            {query.data.map((a) => <AuditItem key={a.id} entry={a} />)}
          </ul>
        </Card>
      )}
    </section>
  );
}
