import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowRight } from './icons';
import { DEFAULT_AMOUNT, DEFAULT_DIRECTION, DIRECTIONS, type DirectionId } from '@core/channels';
import { amountExample } from '@core/amount-input';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Label } from '@web/components/ui/label';
import { Select } from '@web/components/ui/select';
import { directionLabel } from '@web/lib/format';
import { cn } from '@web/lib/utils';
import { CalculatorAmountField } from './calculator-amount-field';
import { CalculatorPrice } from './calculator-price';
import { useCalculatorPrice } from './use-calculator-price';
import { useOwnLimits } from './use-own-limits';

export interface CalculatorProps {
  className?: string;
  initialDirection?: DirectionId;
  initialAmount?: string;
}

/** Home fee/rate calculator: the price computed by src/core from the server's tiers and rates. */
export function Calculator({ className, initialDirection = DEFAULT_DIRECTION, initialAmount = DEFAULT_AMOUNT }: CalculatorProps) {
  const { t, i18n } = useTranslation(['public', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const price = useCalculatorPrice(initialDirection, initialAmount, lng);
  const { direction, info, typed, amountError, quote } = price;
  const currency = info.from;
  const { kyc, limits } = useOwnLimits();
  const over = kyc && kyc.level > 0 && price.rates.data && limits ? limits.windowExceeded(kyc.windows, price.minor, currency, price.rates.data) : null;
  const describedBy = (which: 'amount' | 'payout') =>
    (amountError && typed === which ? `${id}-error` : quote?.limit_error ? `${id}-limit` : undefined);

  return (
    <Card role="region" aria-labelledby={`${id}-title`} className={cn('p-5 sm:p-6', className)}>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">{t('calculator.title')}</h2>
      <div className="mt-4 grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-direction`}>{t('calculator.direction')}</Label>
          <Select id={`${id}-direction`} name="direction" value={direction} onChange={(e) => price.onDirection(e.target.value)} data-testid="calculator-direction">
            {DIRECTIONS.map((d) => (
              <option key={d.id} value={d.id}>
                {directionLabel(t, d.id)}
              </option>
            ))}
          </Select>
        </div>
        {/* Either amount: what is sent (before the fee) or what the recipient gets; typing one fills the other. */}
        <div className="grid grid-cols-2 items-end gap-3">
          <CalculatorAmountField
            id={id} which="amount" label={t('calculator.amount', { currency })} unit={currency} value={price.amountShown}
            onChange={price.onAmount} invalid={!!amountError && typed === 'amount'} describedBy={describedBy('amount')}
          />
          <CalculatorAmountField
            id={id} which="payout" label={t('calculator.payout', { currency: info.to })} unit={info.to} value={price.payoutShown}
            onChange={price.onPayout} invalid={!!amountError && typed === 'payout'} describedBy={describedBy('payout')}
          />
        </div>
        {amountError ? (
          <p id={`${id}-error`} role="alert" className="-mt-2 text-sm font-medium text-destructive">
            {t(`common:amount.${amountError}`, { currency: typed === 'amount' ? currency : info.to, example: amountExample(typed === 'amount' ? currency : info.to, lng) })}
          </p>
        ) : null}
      </div>

      <CalculatorPrice id={id} price={price} level={kyc?.level} over={over} />

      <Button asChild size="lg" className="mt-5 w-full">
        <Link to={price.sendHref} data-testid="calculator-send">
          {t('calculator.send')}
          <ArrowRight aria-hidden />
        </Link>
      </Button>
      <p className="mt-3 text-xs text-slate-600" data-testid="price-fixed">{t('common:price.fixed')} {t('calculator.note')}</p>
    </Card>
  );
}

export default Calculator;
