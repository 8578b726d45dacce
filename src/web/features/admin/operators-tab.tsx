import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Pencil, Trash2 } from 'lucide-react';
import {
  OperatorPrefixInputSchema, type AdminOperatorPrefix, type OperatorPrefixInput,
} from '@core/api/operators';
import { MOBILE_CHANNEL_IDS, MOBILE_NUMBERING, type MobileChannelId } from '@core/operators';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { parseInto, useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { channelLabel } from '@web/lib/format';
import { useAudit } from './admin-api';
import { AuditList } from './audit-list';
import { operatorRangesApi, useRangeMutation, useRanges } from './operator-ranges-api';

// The operators' number ranges a mobile payout number must fall in
// (docs/rules/corridors.md#phone-country-rules): the admin adds, edits and deletes them.

/** "+241 77…": the numbers a range holds. */
const numbersOf = (r: { channel: MobileChannelId; prefix: string }) => `+${MOBILE_NUMBERING[r.channel].countryCode} ${r.prefix}…`;

/** A range as typed; an edited one keeps its destination. */
const rangeFormSchema = (editing: AdminOperatorPrefix | null) => z
  .object({ channel: z.string(), operator: z.string(), prefix: z.string() })
  .transform((v, ctx) => parseInto(OperatorPrefixInputSchema, { ...v, channel: (editing?.channel ?? v.channel) as MobileChannelId }, ctx));

/** Adds a range, or edits `editing` (its operator and prefix: a range stays on its destination). */
function RangeForm({ editing, onDone }: { editing: AdminOperatorPrefix | null; onDone: () => void }) {
  const { t } = useTranslation(['admin', 'common', 'validation']);
  const { toast } = useToast();
  const save = useRangeMutation((range: OperatorPrefixInput) => (editing
    ? operatorRangesApi.update(editing.id, { operator: range.operator, prefix: range.prefix })
    : operatorRangesApi.create(range)));
  const form = useZodForm(rangeFormSchema(editing), {
    channel: editing?.channel ?? MOBILE_CHANNEL_IDS[0], operator: editing?.operator ?? '', prefix: editing?.prefix ?? '',
  });
  const title = editing ? t('operators.editTitle', { numbers: numbersOf(editing) }) : t('operators.createTitle');

  return (
    <Card className="p-4">
      <Form
        form={form}
        onSubmit={async (range) => {
          await save.mutateAsync(range);
          toast({ variant: 'success', title: t(editing ? 'success.updated' : 'success.created', { ns: 'common' }) });
          form.reset();
          onDone();
        }}
        fallbackError={t('states.error', { ns: 'common' })}
        className="grid gap-3 sm:grid-cols-3"
        aria-labelledby="range-form-title"
        data-testid="range-form"
      >
        <h3 id="range-form-title" className="font-semibold sm:col-span-3">{title}</h3>
        {editing ? null : (
          <Field name="channel" label={t('operators.channel')} required>
            <Select>
              {MOBILE_CHANNEL_IDS.map((id) => <option key={id} value={id}>{channelLabel(t, id)}</option>)}
            </Select>
          </Field>
        )}
        <Field name="operator" label={t('operators.operator')} required>
          <Input autoComplete="off" placeholder="Airtel Gabon" />
        </Field>
        <Field name="prefix" label={t('operators.prefix')} required hint={t('operators.prefixHint')}>
          <Input inputMode="numeric" autoComplete="off" placeholder="77" />
        </Field>
        <div className="flex flex-wrap items-end gap-2 sm:col-span-3">
          <SubmitButton>{editing ? t('actions.save', { ns: 'common' }) : t('operators.create')}</SubmitButton>
          {editing ? <Button variant="ghost" onClick={onDone}>{t('actions.cancel', { ns: 'common' })}</Button> : null}
        </div>
        <FormError className="sm:col-span-3" />
      </Form>
    </Card>
  );
}

export function OperatorsTab() {
  const { t } = useTranslation(['admin', 'common']);
  const { toast } = useToast();
  const ranges = useRanges();
  const audit = useAudit('operator_prefix');
  const remove = useRangeMutation(operatorRangesApi.remove);
  const [editing, setEditing] = useState<AdminOperatorPrefix | null>(null);
  const [deleting, setDeleting] = useState<AdminOperatorPrefix | null>(null);

  const doDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast({ variant: 'success', title: t('success.deleted', { ns: 'common' }) });
      if (editing?.id === deleting.id) setEditing(null);
    } catch (err) {
      toast({ variant: 'destructive', title: isApiError(err) ? err.message : t('states.error', { ns: 'common' }) });
    }
    setDeleting(null);
  };

  return (
    <section aria-labelledby="operators-heading" className="flex flex-col gap-4">
      <h2 id="operators-heading" className="text-xl font-semibold text-slate-900">{t('operators.title')}</h2>
      <p className="text-sm text-muted-foreground">{t('operators.note')}</p>
      {ranges.isPending ? <LoadingState /> : ranges.isError ? <Alert variant="destructive">{t('states.error', { ns: 'common' })}</Alert> : (
        <div className="grid gap-4 md:grid-cols-2">
          {MOBILE_CHANNEL_IDS.map((channel) => (
            <Card key={channel} className="p-4">
              <h3 className="font-semibold text-slate-900">{channelLabel(t, channel)}</h3>
              <ul className="mt-2 divide-y divide-border" data-testid={`ranges-${channel}`}>
                {ranges.data.filter((r) => r.channel === channel).map((r) => (
                  <li key={r.id} className="flex items-center justify-between gap-3 py-2" data-testid="range-row">
                    <span className="min-w-0">
                      <span className="font-mono font-medium tabular-nums">{numbersOf(r)}</span>
                      <span className="block truncate text-sm text-muted-foreground">{r.operator}</span>
                    </span>
                    <span className="flex shrink-0 gap-1">
                      <Button variant="ghost" size="icon" aria-label={t('operators.editOf', { numbers: numbersOf(r), operator: r.operator })}
                        onClick={() => setEditing(r)}>
                        <Pencil aria-hidden />
                      </Button>
                      <Button variant="ghost" size="icon" aria-label={t('operators.deleteOf', { numbers: numbersOf(r), operator: r.operator })}
                        onClick={() => setDeleting(r)}>
                        <Trash2 aria-hidden />
                      </Button>
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          ))}
        </div>
      )}
      <RangeForm key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
      <AuditList title={t('operators.history')} query={audit} />
      <ConfirmDialog open={deleting !== null} onKeep={() => setDeleting(null)} onConfirm={doDelete} busy={remove.isPending}
        title={t('operators.confirmTitle')}
        description={deleting ? t('operators.confirmText', { numbers: numbersOf(deleting), operator: deleting.operator }) : null}
        keepLabel={t('actions.cancel', { ns: 'common' })} confirmLabel={t('actions.delete', { ns: 'common' })} />
    </section>
  );
}
