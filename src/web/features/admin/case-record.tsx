import { useTranslation } from 'react-i18next';
import { isCurrency } from '@core/money';
import { Badge } from '@web/components/ui/badge';
import { Card } from '@web/components/ui/card';
import { formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { evidenceText } from './admin-format';
import type { MonitoringCaseDetail } from './monitoring-api';

// What a monitoring case holds (docs/rules/monitoring.md#cases): its alerts with their evidence,
// its transfers, their recipients, and the notes of its steps.

function amountText(amount: string, currency: string, lng: string): string {
  return isCurrency(currency) ? moneyFromDecimal(amount, currency, lng) : `${amount} ${currency}`;
}

/** The alerts of the case, each with what it compared and the transfers it counted. */
export function CaseAlerts({ c }: { c: MonitoringCaseDetail }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <section aria-labelledby="case-alerts" className="flex flex-col gap-2">
      <h4 id="case-alerts" className="font-semibold text-slate-900">{t('monitoring.cases.alertsTitle')}</h4>
      <ul className="flex flex-col gap-2">
        {c.alerts.map((a) => (
          <li key={a.id}>
            <Card className="flex flex-col gap-1 p-3" data-testid={`alert-${a.rule}`}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">{t(`monitoring.rules.${a.rule}.name`)}</span>
                {a.held && (c.status === 'closed'
                  ? <Badge variant="gray">{t('monitoring.cases.released')}</Badge>
                  : <Badge variant="red">{t('monitoring.cases.held')}</Badge>)}
              </div>
              <span className="text-xs text-muted-foreground">{formatDateTime(a.created_at, lng)}{a.transfer_reference ? ` · ${a.transfer_reference}` : ''}</span>
              <ul className="text-sm">
                {a.evidence.compared.map((m) => (
                  <li key={`${m.measure}-${m.window_days ?? ''}`}>
                    {t('monitoring.cases.labelValue', { label: t(`monitoring.measures.${m.measure}`, { defaultValue: m.measure }), value: evidenceText(m.value, lng) })}
                    {' '}({t('monitoring.cases.threshold', { threshold: evidenceText(m.threshold, lng) })}{m.window_days ? `, ${t('monitoring.cases.windowDays', { count: m.window_days })}` : ''})
                  </li>
                ))}
              </ul>
              {a.evidence.transfers.length > 0 && (
                <p className="break-words text-xs text-muted-foreground">
                  {t('monitoring.cases.labelValue', { label: t('monitoring.cases.evidenceTransfers'), value: a.evidence.transfers.map((tr) => tr.reference).join(', ') })}
                </p>
              )}
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The transfers of the case: reference, amount, recipient, status, and whether held. */
export function CaseTransfers({ c }: { c: MonitoringCaseDetail }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <section aria-labelledby="case-transfers" className="flex flex-col gap-2">
      <h4 id="case-transfers" className="font-semibold text-slate-900">{t('monitoring.cases.transfersTitle')}</h4>
      <ul className="flex flex-col gap-2">
        {c.transfers.map((tr) => (
          <li key={tr.id}>
            <Card className="flex flex-col gap-1 p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono">{tr.reference}</span>
                <span className="tabular-nums">{amountText(tr.amount, tr.currency, lng)}</span>
              </div>
              <span className="break-words text-muted-foreground">
                {tr.recipient_name ?? '—'} · {tr.recipient_account?.value ?? '—'} · {t(`status.${tr.status}`, { ns: 'common', defaultValue: tr.status })}
              </span>
              <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                {formatDateTime(tr.created_at, lng)}
                {tr.held && <Badge variant="red">{t('monitoring.cases.held')}</Badge>}
              </span>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The recipients of the case's transfers, with the transfers each received. */
export function CaseRecipients({ c }: { c: MonitoringCaseDetail }) {
  const { t } = useTranslation(['admin', 'common']);
  return (
    <section aria-labelledby="case-recipients" className="flex flex-col gap-2">
      <h4 id="case-recipients" className="font-semibold text-slate-900">{t('monitoring.cases.recipientsTitle')}</h4>
      <ul className="flex flex-col gap-1 text-sm">
        {c.recipients.map((r) => (
          <li key={`${r.account?.value}-${r.name}`} className="break-words">
            <strong>{r.name ?? '—'}</strong> · {t('monitoring.cases.account')} {r.account?.value ?? '—'} · {r.transfers.join(', ')}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The steps taken on the case, each with its note. */
export function CaseNotes({ c }: { c: MonitoringCaseDetail }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <section aria-labelledby="case-notes" className="flex flex-col gap-2">
      <h4 id="case-notes" className="font-semibold text-slate-900">{t('monitoring.cases.notesTitle')}</h4>
      {c.notes.length === 0 ? <p className="text-sm text-muted-foreground">{t('monitoring.cases.noNotes')}</p> : (
        <ol className="flex flex-col gap-1 text-sm">
          {c.notes.map((n) => (
            <li key={n.at} className="break-words">
              <span className="text-xs text-muted-foreground">{formatDateTime(n.at, lng)} · {n.by_name ?? ''}</span>
              <br />
              {t(`monitoring.statuses.${n.from}`)} → {t(`monitoring.statuses.${n.to}`)}{n.outcome ? ` (${t(`monitoring.outcomes.${n.outcome}`)})` : ''} — {n.note}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
