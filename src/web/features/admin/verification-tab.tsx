import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REVIEW_STATUSES, type ReviewStatus } from '@core/kyc-reviews';
import { isOwnCase } from '@core/own-case';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Card } from '@web/components/ui/card';
import { Label } from '@web/components/ui/label';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { formatDate, formatDateTime } from '@web/lib/format';
import { useSession } from '@web/lib/session';
import { errorText } from '@web/lib/translate';
import { addressText } from './admin-format';
import { DecisionForm } from './review-decision';
import { ReviewDocument } from './review-document';
import { useReview, useReviewQueue } from './verification-api';

// The "Verification" tab (docs/rules/know-your-sender.md#reviews): identity reviews oldest first
// with the time waiting; a review's profile beside its documents (review-document.tsx: current or
// superseded, the zone when read), and the decision (review-decision.tsx).

/** "3 h 12 min", "2 d 4 h", "5 min" */
function waited(seconds: number, t: (key: string, vars: Record<string, number>) => string): string {
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (days > 0) return t('verification.waitDays', { days, hours: hours % 24 });
  if (hours > 0) return t('verification.waitHours', { hours, minutes: minutes % 60 });
  return t('verification.waitMinutes', { minutes });
}

function ReviewDetail({ id }: { id: string }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const review = useReview(id);
  const { user } = useSession();
  if (review.isPending) return <LoadingState />;
  if (review.isError) return <Alert variant="destructive">{errorText(review.error, t('verification.loadFailed'))}</Alert>;
  const r = review.data;
  const p = r.profile;
  const rows: [string, string | null][] = [
    [t('verification.profile.name'), p.full_name], [t('verification.profile.birth'), p.date_of_birth && formatDate(`${p.date_of_birth}T12:00:00Z`, lng)],
    [t('verification.profile.address'), addressText({ line: p.address, city: p.city, state: p.state, country: p.country }, lng)],
    [t('verification.profile.phone'), p.phone], [t('verification.profile.email'), p.email], [t('verification.profile.language'), p.language.toUpperCase()],
  ];
  return (
    <Card className="p-4" data-testid="review-detail">
      <h3 className="text-base font-semibold">{t('verification.detailTitle', { level: r.level, name: p.full_name ?? p.email })}</h3>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {rows.map(([k, v]) => <div key={k} className="contents"><dt className="text-slate-700">{k}</dt><dd className="break-words">{v || '—'}</dd></div>)}
      </dl>
      <div className="mt-4 grid gap-3 sm:grid-cols-2">
        {r.documents.map((doc) => <ReviewDocument key={doc.id} doc={doc} />)}
      </div>
      {r.status === 'open' ? (isOwnCase([r.sender.profile_id], user?.id)
        // Their own identity: another staff member decides it (server: 403 own_case).
        ? <Alert variant="warning" className="mt-4" data-testid="own-case">{t('ownCase.review')}</Alert>
        : <DecisionForm review={r} />) : (
        <p className="mt-4 text-sm">{t(`verification.status.${r.status}`)}{r.decided_at ? ` — ${formatDateTime(r.decided_at, lng)}` : ''}{r.note ? ` — ${r.note}` : ''}</p>
      )}
    </Card>
  );
}

export function VerificationTab() {
  const { t } = useTranslation('admin');
  const statusId = useId();
  const [status, setStatus] = useState<ReviewStatus>('open');
  const [selected, setSelected] = useState<string | null>(null);
  const queue = useReviewQueue(status);
  const { user } = useSession();
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <Label htmlFor={statusId}>{t('verification.statusLabel')}</Label>
          <Select id={statusId} className="mt-1" value={status} onChange={(e) => { setStatus(e.target.value as ReviewStatus); setSelected(null); }}>
            {REVIEW_STATUSES.map((s) => <option key={s} value={s}>{t(`verification.status.${s}`)}</option>)}
          </Select>
        </div>
        <p className="text-sm text-slate-700">{t('verification.target')}</p>
      </div>
      {queue.isPending ? <LoadingState /> : queue.isError ? <Alert variant="destructive">{errorText(queue.error, t('verification.loadFailed'))}</Alert> : queue.data.length === 0 ? (
        <p className="text-sm" data-testid="review-queue-empty">{t('verification.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="review-queue">
          {queue.data.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                aria-expanded={selected === r.id}
                onClick={() => setSelected(selected === r.id ? null : r.id)}
                className="flex w-full flex-wrap items-center justify-between gap-2 rounded-lg border border-border bg-white p-3 text-left text-sm hover:bg-muted"
              >
                <span className="min-w-0">
                  <span className="block font-medium">
                    {r.sender.full_name ?? r.sender.email}
                    {isOwnCase([r.sender.profile_id], user?.id) ? <Badge variant="yellow" className="ml-2" data-testid="own-case-badge">{t('ownCase.badge')}</Badge> : null}
                  </span>
                  <span className="block break-all text-slate-700">{r.sender.email}</span>
                </span>
                <span className="text-right">
                  <span className="block">{t('verification.levelAsked', { level: r.level })}</span>
                  <span className="block tabular-nums text-slate-700">{r.status === 'open' ? t('verification.waiting', { time: waited(r.waiting_seconds, t) }) : t('verification.took', { time: waited(r.waiting_seconds, t) })}</span>
                </span>
              </button>
              {selected === r.id ? <div className="mt-2"><ReviewDetail id={r.id} /></div> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
