import { useTranslation } from 'react-i18next';
import type { RatesResponse } from '@core/api/pricing';
import { windowExceeded } from '@core/kyc';
import type { Currency } from '@core/money';
import { moneyFromDecimal } from '@web/lib/format';
import type { KycStatus } from '@web/lib/kyc';

/**
 * The sender's own limits, told before the review as the server would refuse them
 * (docs/rules/know-your-sender.md#limits): what to complete at level 0, else the first window
 * this amount exceeds, with what is left and how to raise it. Null when none is broken.
 */
export function useSenderLimitError(
  status: KycStatus | undefined, rates: RatesResponse['data'] | undefined, minor: number, currency: Currency,
): () => string | null {
  const { t, i18n } = useTranslation(['transfer', 'common', 'validation']);
  const lng = i18n.resolvedLanguage ?? 'en';
  return () => {
    if (!status || !rates || minor <= 0) return null;
    if (status.level === 0) return t('kyc.requiredBody', { missing: (status.next?.provide ?? []).map((f) => t(`errors:kyc.field.${f}`)).join(', ') });
    const over = windowExceeded(status.windows, minor, currency, rates);
    if (!over) return null;
    return `${t('kyc.overLimit', { window: t(`kyc.window.${over.window}`), left: moneyFromDecimal(over.left!, 'EUR', lng) })} ${t('kyc.howToRaise')}`;
  };
}
