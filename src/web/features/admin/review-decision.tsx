import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KycReviewDetail } from '@core/api/kyc-reviews';
import type { ReviewDecision, ReviewLevel } from '@core/kyc-reviews';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Label } from '@web/components/ui/label';
import { Select } from '@web/components/ui/select';
import { errorText } from '@web/lib/translate';
import { documentSlot } from './review-document';
import { useDecideReview } from './verification-api';

// The decision on an identity review (docs/rules/know-your-sender.md#reviews): nothing is chosen
// until the reviewer chooses; asking for more names the documents to send again (the others are
// kept); an expired document is said before anything is approved.

function ResendChoice({ review, chosen, onChange }: { review: KycReviewDetail; chosen: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation('admin');
  const docs = review.documents.filter((d) => d.in_review && d.current);
  return (
    <fieldset data-testid="resend-choice">
      <legend className="text-sm font-medium">{t('verification.resendLegend')}</legend>
      {docs.map((d) => (
        <label key={d.id} className="mt-2 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={chosen.includes(d.id)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, d.id] : chosen.filter((id) => id !== d.id))} />
          {t(`verification.kind.${documentSlot(d)}`)}
        </label>
      ))}
    </fieldset>
  );
}

export function DecisionForm({ review }: { review: KycReviewDetail }) {
  const { t } = useTranslation('admin');
  const noteId = useId();
  const levelId = useId();
  const [decision, setDecision] = useState<ReviewDecision | null>(null);
  const [level, setLevel] = useState<ReviewLevel>(review.level);
  const [note, setNote] = useState('');
  const [resend, setResend] = useState<string[]>([]);
  const decide = useDecideReview(review.id);
  const expired = review.documents.some((d) => d.in_review && d.current && d.mrz?.expired === true);
  const ready = decision !== null && (decision !== 'request_more' || resend.length > 0);
  return (
    <form
      className="mt-4 flex flex-col gap-3 border-t border-border pt-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (decision) decide.mutate({ decision, note, resend: decision === 'request_more' ? resend : [], ...(decision === 'approve' ? { level } : {}) });
      }}
    >
      {expired ? <Alert variant="warning" data-testid="expired-warning">{t('verification.expiredWarning')}</Alert> : null}
      <fieldset>
        <legend className="text-sm font-medium">{t('verification.decision')}</legend>
        {(['approve', 'reject', 'request_more'] as const).map((d) => (
          <label key={d} className="mt-2 flex items-center gap-2 text-sm">
            <input type="radio" name={`decision-${review.id}`} value={d} checked={decision === d} onChange={() => setDecision(d)} />
            {t(`verification.decisions.${d}`)}
          </label>
        ))}
      </fieldset>
      {decision === 'request_more' ? <ResendChoice review={review} chosen={resend} onChange={setResend} /> : null}
      {decision === 'approve' && review.level === 3 ? (
        <div>
          <Label htmlFor={levelId}>{t('verification.level')}</Label>
          <Select id={levelId} className="mt-1" value={level} onChange={(e) => setLevel(Number(e.target.value) as ReviewLevel)}>
            <option value={3}>3</option>
            <option value={2}>2</option>
          </Select>
        </div>
      ) : null}
      {decision ? (
        <div>
          <Label htmlFor={noteId}>{decision === 'approve' ? t('verification.noteOptional') : decision === 'reject' ? t('verification.noteReason') : t('verification.noteMore')}</Label>
          <textarea id={noteId} className="mt-1 min-h-20 w-full rounded-md border border-input p-2 text-sm" value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
        </div>
      ) : <p className="text-sm text-slate-700">{t('verification.chooseDecision')}</p>}
      {decide.isError ? <Alert variant="destructive">{errorText(decide.error, t('verification.decideFailed'))}</Alert> : null}
      <Button type="submit" disabled={!ready} loading={decide.isPending} variant={decision === 'reject' ? 'destructive' : 'default'} className="w-full sm:w-auto" data-testid="decide-submit">
        {t(decision ? `verification.submit.${decision}` : 'verification.submit.none')}
      </Button>
    </form>
  );
}
