import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ReviewStatus } from '@web/components/kyc-review-notice';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Label } from '@web/components/ui/label';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { kycKeys, requestKycReview, useKyc, type KycStatus } from '@web/lib/kyc';
import { errorText } from '@web/lib/translate';
import { DocumentInput, slotKey, type SlotState } from './document-input';
import { KeptDocuments } from './kept-documents';
import { idKindOf, keptDocuments, slotsFor, slotsForMissing, useMyDocuments, type IdKind } from './verify-slots';

// "Verify my identity" (docs/rules/know-your-sender.md#reviews): the sender picks level 2 or 3,
// sends each document from the phone's camera or a file, then asks staff to review them. After
// staff asked for more (or refused), only what is missing is asked; what was accepted is kept.

function LevelChoice({ level, onChange }: { level: 2 | 3; onChange: (l: 2 | 3) => void }) {
  const { t } = useTranslation('transfer');
  return (
    <fieldset className="mb-4">
      <legend className="text-sm font-medium">{t('verify.chooseLevel')}</legend>
      {([2, 3] as const).map((l) => (
        <label key={l} className="mt-2 flex items-start gap-2 text-sm">
          <input type="radio" name="level" value={l} checked={level === l} onChange={() => onChange(l)} className="mt-1" />
          <span>{t(`verify.level${l}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}

function DocumentsForm({ status }: { status: KycStatus }) {
  const { t } = useTranslation(['transfer', 'errors']);
  const queryClient = useQueryClient();
  const documents = useMyDocuments();
  const [level, setLevel] = useState<2 | 3>(2);
  const [chosenIdKind, setIdKind] = useState<IdKind | null>(null);
  const [states, setStates] = useState<Record<string, SlotState>>({});
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!documents.data) return <LoadingState />;

  // Asked again (more requested, or refused): the review's level and only what is missing.
  const again = status.open_review && status.open_review.status !== 'open' ? status.open_review : null;
  const idKind = chosenIdKind ?? idKindOf(documents.data) ?? 'id_card';
  const chosenLevel: 2 | 3 = again ? again.level : status.level >= 2 ? 3 : level;
  const slots = again ? slotsForMissing(again.missing, idKind)
    // At level 2 the identity is approved already: level 3 adds the two proofs.
    : status.level >= 2 ? slotsFor(3, idKind).filter((s) => s.kind === 'proof_of_address' || s.kind === 'source_of_funds') : slotsFor(chosenLevel, idKind);
  const asksIdentity = again ? again.missing.includes('identity_document') : status.level < 2;
  const ready = slots.every((slot) => states[slotKey(slot)]?.state === 'done');

  const submit = async () => {
    setSubmitting(true);
    setError(null);
    try {
      await requestKycReview(chosenLevel);
      setStates({});
      await queryClient.invalidateQueries({ queryKey: kycKeys.me });
    } catch (err) {
      setError(errorText(err, t('errors:generic')));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Card className="p-4 sm:p-6">
      {again ? <p className="mb-3 text-sm">{t(slots.length > 0 ? 'verify.status.again' : 'verify.status.nothingMissing')}</p> : null}
      {again ? <KeptDocuments documents={keptDocuments(documents.data)} /> : null}
      {!again && status.level < 2 ? <LevelChoice level={level} onChange={setLevel} /> : null}
      {asksIdentity ? <div className="mb-4">
        <Label htmlFor="verify-id-kind">{t('verify.documentType')}</Label>
        <Select id="verify-id-kind" className="mt-1" value={idKind} onChange={(e) => setIdKind(e.target.value as IdKind)}>
          {(['passport', 'id_card', 'residence_permit'] as const).map((k) => <option key={k} value={k}>{t(`verify.kinds.${k}`)}</option>)}
        </Select>
      </div> : null}
      <ul className="flex flex-col gap-3">
        {slots.map((slot) => (
          <DocumentInput key={slotKey(slot)} slot={slot} onChange={(s) => setStates((prev) => ({ ...prev, [slotKey(slot)]: s }))} />
        ))}
      </ul>
      {error ? <Alert variant="destructive" className="mt-4">{error}</Alert> : null}
      <Button className="mt-4 w-full sm:w-auto" disabled={!ready} loading={submitting} onClick={() => void submit()} data-testid="verify-submit">
        {submitting ? t('verify.submitting') : t('verify.submit')}
      </Button>
    </Card>
  );
}

export default function VerifyPage() {
  const { t } = useTranslation(['transfer', 'errors']);
  const kyc = useKyc();
  if (!kyc.data) return <PageShell><LoadingState /></PageShell>;
  const status = kyc.data;
  const review = status.open_review;
  return (
    <PageShell>
      <PageHeader title={t('verify.title')} description={t('verify.intro', { level: status.level })} />
      {review ? <div className="mb-4"><ReviewStatus review={review} /></div> : null}
      {status.level >= 3 ? <Alert variant="success">{t('verify.atTop')}</Alert> : review?.status === 'open' ? (
        <Link to="/dashboard" className="font-medium text-brand-700 underline">{t('common:nav.dashboard')}</Link>
      ) : <DocumentsForm status={status} />}
    </PageShell>
  );
}
