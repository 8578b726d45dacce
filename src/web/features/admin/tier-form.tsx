import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { directionById, type DirectionId } from '@core/channels';
import { normalizeDecimal } from '@core/money';
import { fractionToPercent, percentToFraction } from '@core/percent';
import { FeeTierInputSchema } from '@core/schemas';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { parseInto, useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { directionLabel } from '@web/lib/format';
import { useSaveTier, type StoredTier } from './admin-api';

const plain = (v: string | null) => (v == null ? '' : normalizeDecimal(v) ?? v);

/** A tier as the admin types it: the fee as a percent ("4.5"), blank for "none". */
function tierFormSchema(direction: DirectionId) {
  return z
    .object({ percentage: z.string(), min_amount: z.string(), max_amount: z.string(), min_fee: z.string() })
    .transform((v, ctx) => {
      const percent = v.percentage.trim();
      // Sent as the fraction the API takes; text that is no number is checked as typed, and refused.
      const tier = {
        direction, percentage: percentToFraction(percent) ?? percent, min_amount: v.min_amount.trim(),
        max_amount: v.max_amount.trim() || null, min_fee: v.min_fee.trim() || null,
      };
      return parseInto(FeeTierInputSchema, tier, ctx);
    });
}

/** Creates a fee tier for a corridor, or edits `editing`; `onDone` after a save or a cancel. */
export function TierForm({ direction, editing, onDone }: { direction: DirectionId; editing: StoredTier | null; onDone: () => void }) {
  const { t } = useTranslation(['admin', 'common', 'validation']);
  const { toast } = useToast();
  const save = useSaveTier();
  const currency = directionById(direction)!.from;
  const form = useZodForm(tierFormSchema(direction), {
    percentage: editing ? fractionToPercent(editing.percentage) ?? '' : '',
    min_amount: plain(editing?.min_amount ?? null),
    max_amount: plain(editing?.max_amount ?? null),
    min_fee: plain(editing?.min_fee ?? null),
  });

  return (
    <Card className="p-4">
      <Form
        form={form}
        onSubmit={async (tier) => {
          await save.mutateAsync({ ...(editing ? { id: editing.id } : {}), ...tier });
          toast({ variant: 'success', title: t(editing ? 'success.updated' : 'success.created', { ns: 'common' }) });
          form.reset();
          onDone();
        }}
        fallbackError={t('states.error', { ns: 'common' })}
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5"
        aria-labelledby="tier-form-title"
      >
        <h3 id="tier-form-title" className="font-semibold sm:col-span-2 lg:col-span-5">
          {editing ? t('fees.editTitle') : t('fees.createTitle')} · {directionLabel(t, direction)}
        </h3>
        <Field name="percentage" label={t('fees.percentField')} required>
          <Input inputMode="decimal" placeholder="4.5" />
        </Field>
        <Field name="min_amount" label={t('fees.minField', { currency })} required>
          <Input inputMode="decimal" />
        </Field>
        <Field name="max_amount" label={t('fees.maxField', { currency })} hint={t('fees.maxHint')}>
          <Input inputMode="decimal" />
        </Field>
        <Field name="min_fee" label={t('fees.minFeeField', { currency })}>
          <Input inputMode="decimal" />
        </Field>
        <div className="flex items-end gap-2">
          <SubmitButton>{editing ? t('actions.save', { ns: 'common' }) : t('fees.create')}</SubmitButton>
          {editing ? <Button variant="ghost" onClick={onDone}>{t('actions.cancel', { ns: 'common' })}</Button> : null}
        </div>
        <FormError className="sm:col-span-2 lg:col-span-5" />
      </Form>
    </Card>
  );
}
