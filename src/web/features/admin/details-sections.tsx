import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FileText } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { LoadingState } from '@web/components/ui/spinner';
import { isApiError } from '@web/lib/api';
import { channelLabel, formatDateTime } from '@web/lib/format';
import { fetchProof, type ProofFile, type StaffDetail } from './admin-api';
import { addressText, requesterName } from './admin-format';

// The staff details' read-only parts (docs/rules/back-office.md#staff-queue): a labelled row, the
// proofs of payment, who did what, and the travel rule's record.

export function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  if (children == null || children === '') return null;
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-2 py-1 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** One proof of payment: an image inline, a PDF as a link (both fetched with the session token). */
function Proof({ requestId, proof }: { requestId: string; proof: ProofFile }) {
  const { t, i18n } = useTranslation('admin');
  const [file, setFile] = useState<{ url: string; type: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    fetchProof(requestId, proof.id, controller.signal)
      .then((blob) => { url = URL.createObjectURL(blob); setFile({ url, type: blob.type }); })
      .catch((e: unknown) => { if (!controller.signal.aborted) setError(isApiError(e) ? e.message : t('details.proofFailed')); });
    return () => { controller.abort(); if (url) URL.revokeObjectURL(url); };
  }, [requestId, proof.id, t]);
  let body: ReactNode;
  if (error) body = <Alert variant="destructive">{error}</Alert>;
  else if (!file) body = <LoadingState className="py-4" />;
  else if (file.type === 'application/pdf') {
    body = (
      <a href={file.url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-2 text-brand-700 underline">
        <FileText aria-hidden className="size-4" /> {t('details.openPdf')}
      </a>
    );
  } else body = <img src={file.url} alt={t('details.proofAlt')} className="max-h-80 w-full rounded-md border border-border object-contain" />;
  return (
    <li className="flex flex-col gap-1">
      <p className="text-sm text-muted-foreground">
        {t('details.proofUploaded', { time: formatDateTime(proof.created_at, i18n.resolvedLanguage ?? 'en') })} · {proof.filename}
      </p>
      {body}
    </li>
  );
}

const ACTOR_ROLES = ['processed_by', 'approved_by', 'payment_recorded_by', 'payout_sent_by', 'refunded_by'] as const;

/** Who did what (docs/rules/back-office.md#four-eyes): the staff member behind each step, and the four-eyes approval the amount needs. */
export function ActorsSection({ transfer }: { transfer: StaffDetail }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const done = ACTOR_ROLES.filter((role) => transfer.actors[role]);
  return (
    <section aria-labelledby="d-actors">
      <h3 id="d-actors" className="mb-1 font-semibold">{t('details.whoDidWhat')}</h3>
      <p className="mb-1 text-sm text-slate-700" data-testid="approval-state">
        {transfer.needs_approval ? t('approval.needed')
          : transfer.approval_required && transfer.approved_at ? t('approval.given', { when: formatDateTime(transfer.approved_at, lng) })
            : t('approval.notRequired')}
      </p>
      {done.length ? (
        <dl>
          {done.map((role) => {
            const actor = transfer.actors[role]!;
            return <Row key={role} label={t(`details.by.${role}`)}>{requesterName(actor)}</Row>;
          })}
        </dl>
      ) : <p className="text-sm text-muted-foreground">{t('details.noStaffYet')}</p>}
    </section>
  );
}

/** Who sent it and who gets it as they were when it was made (docs/rules/know-your-sender.md#travel-rule). */
export function TravelRuleSection({ transfer }: { transfer: StaffDetail }) {
  const { t, i18n } = useTranslation('admin');
  // Shown on demand: compliance reading, not what the queue's work needs at every opening.
  const [open, setOpen] = useState(false);
  const rule = transfer.travel_rule;
  const o = rule?.originator;
  const b = rule?.beneficiary;
  return (
    <section aria-labelledby="d-travel" data-testid="travel-rule">
      <h3 id="d-travel" className="mb-1 font-semibold">{t('details.travelRule.title')}</h3>
      {!open ? (
        <Button type="button" size="sm" variant="outline" onClick={() => setOpen(true)}>{t('details.travelRule.show')}</Button>
      ) : !o || !b ? <p className="text-sm text-muted-foreground">{t('details.travelRule.none')}</p> : (
        <div className="grid sm:grid-cols-2 sm:gap-x-6">
          <dl>
            <Row label={t('details.travelRule.originator')}>{o.full_name}</Row>
            <Row label={t('details.travelRule.dateOfBirth')}>{o.date_of_birth}</Row>
            <Row label={t('details.travelRule.address')}>{addressText(o.address, i18n.language)}</Row>
            <Row label={t('details.travelRule.customerNumber')}><span className="font-mono text-xs">{o.customer_number}</span></Row>
            <Row label={t('details.travelRule.paidFrom')}>{channelLabel(t, o.account.provider)}</Row>
          </dl>
          <dl>
            <Row label={t('details.travelRule.beneficiary')}>{b.name ?? t('details.travelRule.noName')}</Row>
            <Row label={t(`details.travelRule.account.${b.account.kind}`)}>{b.account.value}</Row>
            <Row label={t('details.travelRule.country')}>{b.country}</Row>
          </dl>
        </div>
      )}
    </section>
  );
}

/** Every proof of payment the sender uploaded, newest first. */
export function ProofsSection({ requestId, proofs, pending }: { requestId: string; proofs: ProofFile[] | undefined; pending: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <section aria-labelledby="d-proof">
      <h3 id="d-proof" className="mb-2 font-semibold">{t('details.proof')}</h3>
      {pending ? <LoadingState className="py-4" /> : proofs?.length ? (
        <ol className="flex flex-col gap-4" data-testid="proofs">
          {proofs.map((proof) => <Proof key={proof.id} requestId={requestId} proof={proof} />)}
        </ol>
      ) : <p className="text-sm text-muted-foreground">{t('details.noProof')}</p>}
    </section>
  );
}
