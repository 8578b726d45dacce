import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ShieldCheck } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { KycReviewNotice } from '@web/components/kyc-review-notice';
import { moneyFromDecimal } from '@web/lib/format';
import { useKyc, windowNearLimit, type KycStatus } from '@web/lib/kyc';

// The sender's level and what is used and left of each limit (docs/rules/know-your-sender.md#what-the-sender-sees).

/** What the sender must still add to the profile, in their language. */
function missingText(t: (key: string) => string, status: KycStatus): string {
  return (status.next?.provide ?? []).map((field) => t(`errors:kyc.field.${field}`)).join(', ');
}

/** Level 0: sending waits for the profile; with what to add and where. */
function CompleteProfile({ status }: { status: KycStatus }) {
  const { t } = useTranslation(['transfer', 'errors']);
  // A complete profile whose own screening has not run yet: nothing for the sender to add
  // (docs/rules/know-your-sender.md#levels).
  if (status.next?.provide.length === 1 && status.next.provide[0] === 'screening') {
    return (
      <Alert variant="warning" data-testid="kyc-screening">
        <p className="font-medium">{t('kyc.screeningTitle')}</p>
        <p className="mt-1">{t('kyc.screeningBody')}</p>
      </Alert>
    );
  }
  return (
    <Alert variant="warning" data-testid="kyc-required">
      <p className="font-medium">{t('kyc.requiredTitle')}</p>
      <p className="mt-1">{t('kyc.requiredBody', { missing: missingText(t, status) })}</p>
      <Link to="/profile" className="mt-2 inline-block font-medium underline">{t('kyc.completeProfile')}</Link>
    </Alert>
  );
}

/** The dashboard's card: the level, each window's used and left, a warning from 80 % used. */
export function KycCard() {
  const { t, i18n } = useTranslation(['transfer', 'errors']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const kyc = useKyc();
  if (!kyc.data) return null;
  const status = kyc.data;
  const near = status.windows.filter(windowNearLimit);
  return (
    <Card className="mb-6 p-4 sm:p-6" data-testid="kyc-card">
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <ShieldCheck aria-hidden className="size-5" />{t('kyc.title', { level: status.level })}
      </h2>
      {status.level === 0 ? <div className="mt-3"><CompleteProfile status={status} /></div> : (
        <>
          <dl className="mt-3 grid gap-3 sm:grid-cols-3">
            {status.windows.map((w) => (
              <div key={w.window} className="rounded-lg border border-border p-3" data-testid={`kyc-window-${w.window}`}>
                <dt className="text-sm text-slate-700">{t(`kyc.window.${w.window}`)}</dt>
                <dd className="mt-1 text-sm">
                  {w.limit === null ? t('kyc.corridorMax') : (
                    <>
                      <span className="block text-lg font-semibold tabular-nums">{t('kyc.left', { amount: moneyFromDecimal(w.left ?? '0', 'EUR', lng) })}</span>
                      {w.window === 'transfer' ? null : (
                        <span className="text-slate-700">{t('kyc.used', { used: moneyFromDecimal(w.used, 'EUR', lng), limit: moneyFromDecimal(w.limit, 'EUR', lng) })}</span>
                      )}
                    </>
                  )}
                </dd>
              </div>
            ))}
          </dl>
          {near.length > 0 ? (
            <Alert variant="warning" className="mt-3" data-testid="kyc-near-limit">
              {t('kyc.nearLimit', { window: t(`kyc.window.${near[0]!.window}`) })} {t('kyc.howToRaise')}
            </Alert>
          ) : null}
        </>
      )}
      <KycReviewNotice status={status} />
    </Card>
  );
}

/** Above the transfer form: a level-0 account is told what to complete before it fills anything in. */
export function KycTransferNotice() {
  const kyc = useKyc();
  if (!kyc.data || kyc.data.level !== 0) return null;
  return <div className="mb-4"><CompleteProfile status={kyc.data} /></div>;
}
