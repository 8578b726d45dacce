import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { QuoteValidityInputSchema } from '@core/schemas';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { formatMinutes } from '@web/lib/durations';
import { directionLabel } from '@web/lib/format';
import { errorText } from '@web/lib/translate';
import { useQuoteValidity, useSetQuoteValidity, type CorridorValidity } from './quote-validity-api';

// How long a price quoted holds, per corridor (docs/rules/fees-and-rates.md#a-quote-is-a-promise):
// whole minutes from 1 to a week; each change is audited by the server and applies to the
// corridor's next quote (quotes already given keep their expiry).

function CorridorRow({ row }: { row: CorridorValidity }) {
  const { t, i18n } = useTranslation(['admin', 'common', 'validation']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const [typed, setTyped] = useState(String(row.minutes));
  const [error, setError] = useState<string | null>(null);
  const save = useSetQuoteValidity();
  const { toast } = useToast();
  const name = directionLabel(t, row.direction);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = QuoteValidityInputSchema.safeParse({ direction: row.direction, minutes: /^\s*\d+\s*$/.test(typed) ? Number(typed) : Number.NaN });
    if (!input.success) { setError(t('quoteMinutesInvalid', { ns: 'validation' })); return; }
    setError(null);
    save.mutate(input.data, {
      onSuccess: () => toast({ variant: 'success', title: t('quoteValidity.saved', { corridor: name, duration: formatMinutes(input.data.minutes, lng) }) }),
      onError: (err) => setError(errorText(err, t('states.error', { ns: 'common' }))),
    });
  };

  return (
    <li className="border-b border-border p-3 last:border-0" data-testid={`quote-validity-${row.direction}`}>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label={name}>
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor={id} className="block text-sm font-medium">{name}</label>
          <p className="text-xs text-slate-700">{t('quoteValidity.now', { duration: formatMinutes(row.minutes, lng) })}</p>
        </div>
        <div className="flex items-center gap-2">
          <Input id={id} inputMode="numeric" className="w-28" value={typed} onChange={(e) => setTyped(e.target.value)}
            aria-invalid={error !== null} aria-describedby={error ? `${id}-error` : undefined} />
          <span className="text-sm">{t('quoteValidity.minutes')}</span>
        </div>
        <Button type="submit" size="sm" variant="secondary" loading={save.isPending} disabled={typed.trim() === String(row.minutes)}>
          {t('quoteValidity.save')}
        </Button>
      </form>
      {error ? <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-800">{error}</p> : null}
    </li>
  );
}

export function QuoteValidityTab() {
  const { t } = useTranslation(['admin', 'common']);
  const validity = useQuoteValidity();
  return (
    <section aria-labelledby="quote-validity-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="quote-validity-heading" className="text-xl font-semibold text-slate-900">{t('quoteValidity.title')}</h2>
        <p className="mt-1 text-sm text-slate-700">{t('quoteValidity.description')}</p>
      </div>
      {validity.isPending ? <LoadingState /> : validity.isError ? (
        <Alert variant="destructive">{errorText(validity.error, t('states.error', { ns: 'common' }))}</Alert>
      ) : (
        <Card><ul>{validity.data.map((row) => <CorridorRow key={row.direction} row={row} />)}</ul></Card>
      )}
    </section>
  );
}
