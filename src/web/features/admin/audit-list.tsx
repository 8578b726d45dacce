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

/**
 * Fields and values of a change in the reader's words: "Role: User → Manager", not "role: user → manager";
 * an id among the values by the name the server gave it ("Proposed by: Ada Admin"), never the raw id.
 */
export function useChangeWords(entry?: Pick<AuditEntry, 'action' | 'names'>): ChangeWords {
  const { t } = useTranslation(['admin', 'common']);
  const review = entry?.action.startsWith('kyc_review.');
  return {
    field: (key) => t(`audit.fields.${key}`, { defaultValue: key.replace(/_/g, ' ') }),
    value: (key, value) => {
      if (typeof value === 'string' && entry?.names[value]) return entry.names[value];
      if (typeof value === 'boolean') return t(value ? 'audit.yes' : 'audit.no');
      // An identity level in words ("Level 1"), never a bare 0 or 1.
      if ((key === 'level' || key === 'kyc_level') && typeof value === 'number') return t('kycLimits.level', { level: value });
      // The documents asked again, counted: their ids say nothing to a reader.
      if (key === 'resend' && Array.isArray(value)) return t('audit.documents', { count: value.length });
      if (typeof value !== 'string') return null;
      // An identity review's status or decision ("More asked of the sender"), never the code.
      if (review && key === 'status') return t(`audit.reviewStatuses.${value}`, { defaultValue: value });
      if (review && key === 'decision') return t(`audit.reviewDecisions.${value}`, { defaultValue: value });
      // A screening alert's status or decision ("False positive"), never the code.
      if ((key === 'status' || key === 'decision') && (ALERT_STATUSES as readonly string[]).includes(value)) return t(`compliance.alerts.statuses.${value}`);
      if (key === 'kind') return t(`verification.kind.${value}`, { defaultValue: value });
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

/**
 * The object as a person names it: "Identity review · Level 2 · Chloé Dupont (…)", "Alert on
 * Emil Korvath", "Transfer MT-…"; an object the server cannot name, by its id.
 */
function useTargetName(a: AuditEntry): { target: string; name: string | null } {
  const { t } = useTranslation('admin');
  const target = t(`audit.targets.${a.target_type}`, { defaultValue: a.target_type });
  if (!a.target_label) return { target, name: a.target_id };
  const detail = !a.target_detail ? null
    : a.target_type === 'kyc_review' ? t('kycLimits.level', { level: a.target_detail })
      : a.target_type === 'kyc_document' ? t(`verification.kind.${a.target_detail.replace(':', '_')}`, { defaultValue: a.target_detail }) : null;
  if (a.target_type === 'screening_alert') return { target: t('audit.alertOn'), name: a.target_label };
  return { target: detail ? `${target} · ${detail} ·` : target, name: a.target_label };
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
  const changes = changeSummary(a.before, a.after, useChangeWords(a));
  const { target, name: targetName } = useTargetName(a);
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
