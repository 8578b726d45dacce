import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { KycOpenReview } from '@core/api/kyc-reviews';
import type { KycStatus } from '@core/api/kyc';
import { Alert } from '@web/components/ui/alert';
import { formatDate } from '@web/lib/format';

// A sender's identity review as the dashboard and the "Verify my identity" page show it
// (docs/rules/know-your-sender.md#reviews): waiting, "action needed" with what staff need, or the
// reason of a refusal; and the way to the page that raises the level.

/** The open review's status, or staff's words when they refused or asked for more. */
export function ReviewStatus({ review }: { review: NonNullable<KycOpenReview> }) {
  const { t, i18n } = useTranslation('transfer');
  if (review.status === 'open') {
    return (
      <Alert data-testid="verify-review-open">
        <p>{t('verify.status.open', { level: review.level, date: formatDate(review.submitted_at, i18n.resolvedLanguage ?? 'en') })}</p>
        <p className="mt-1">{t('verify.keepSending')}</p>
      </Alert>
    );
  }
  if (review.status === 'more_requested') {
    return (
      <Alert variant="warning" data-testid="verify-action-needed">
        <p className="font-semibold">{t('verify.status.more_requested')}</p>
        <p className="mt-1">{t('verify.status.moreBody', { note: review.note ?? '' })}</p>
      </Alert>
    );
  }
  if (review.status === 'rejected') {
    return (
      <Alert variant="destructive" data-testid="verify-rejected">
        <p className="font-semibold">{t('verify.status.rejected', { level: review.level })}</p>
        <p className="mt-1">{t('verify.status.rejectedBody', { note: review.note ?? '' })}</p>
      </Alert>
    );
  }
  return null;
}

/** Under the dashboard's limits: the review's state, and the link to verify (until level 3). */
export function KycReviewNotice({ status }: { status: KycStatus }) {
  const { t } = useTranslation('transfer');
  if (status.level === 0) return null;
  return (
    <div className="mt-3 flex flex-col gap-3">
      {status.open_review ? <ReviewStatus review={status.open_review} /> : null}
      {status.level < 3 && status.open_review?.status !== 'open' ? (
        <Link to="/verify" className="font-medium text-brand-700 underline" data-testid="kyc-verify-link">{t('verify.link')}</Link>
      ) : null}
    </div>
  );
}
