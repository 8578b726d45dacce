import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { ArrowLeft, Send } from 'lucide-react';
import {
  CHANNELS, CHANNEL_IDS, DEFAULT_AMOUNT, DEFAULT_DIRECTION, directionById, directionFor, firstValidDestination,
  isChannelId, isDirectionId, isSupportedPair, type ChannelId,
} from '../../../core/channels';
import { computeQuote } from '../../../core/fees';
import { parseAmount } from '../../../core/money';
import { PaymentInitiateSchema } from '../../../core/schemas';
import { PageHeader, PageShell } from '../../components/page';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input, Textarea } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { useToast } from '../../components/ui/toast';
import { useSession } from '../../lib/session';
import { api, isApiError } from '../../lib/api';
import { channelLabel, formatDecimalText, money } from '../../lib/format';
import { useFees, useRates } from '../../lib/queries';
import { transferKeys, useSavedRecipients, type DestinationDetails } from '../../lib/transfers';
import { translateKey } from './translate';

type Fields = Record<'recipient_name' | 'recipient_email' | 'recipient_phone' | 'iban' | 'bic', string>;
const EMPTY: Fields = { recipient_name: '', recipient_email: '', recipient_phone: '', iban: '', bic: '' };

/** Digits with one '.' or ',' while typing; no decimals for XAF/RWF (D9). */
function cleanAmount(raw: string, decimals: boolean): string {
  const v = raw.replace(/\s/g, '');
  if (!/^\d*[.,]?\d*$/.test(v)) return '';
  return decimals ? v.replace(/([.,]\d{0,2}).*$/, '$1') : v.replace(/[.,].*$/, '');
}

function initialChannels(direction: string | null): [ChannelId, ChannelId] {
  const d = directionById(direction && isDirectionId(direction) ? direction : DEFAULT_DIRECTION)!;
  return [d.source, d.destination];
}

export default function TransferPage() {
  const { t, i18n } = useTranslation(['transfer', 'common', 'validation']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const { user } = useSession();

  const [[source, destination], setChannels] = useState(() => initialChannels(params.get('direction')));
  const currency = CHANNELS[source].currency;
  const [amount, setAmount] = useState(() => cleanAmount(params.get('amount') ?? DEFAULT_AMOUNT, currency === 'USD' || currency === 'EUR'));
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [note, setNote] = useState('');
  const [saveRecipient, setSaveRecipient] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [review, setReview] = useState<{ key: string } | null>(null);
  const [creating, setCreating] = useState(false);

  const fees = useFees();
  const rates = useRates();
  const recipients = useSavedRecipients();
  const kind = CHANNELS[destination].kind;
  const direction = directionFor(source, destination);
  const minor = parseAmount(amount, currency) ?? 0;

  const quote = useMemo(() => {
    if (!direction || !rates.data || !fees.data) return null;
    const corridor = fees.data.corridors?.find((c) => c.direction === direction) ?? null;
    return computeQuote({ direction, amount: minor, tiers: fees.data.data ?? [], corridor, rates: rates.data });
  }, [direction, minor, rates.data, fees.data]);

  const saved = (recipients.data ?? []).filter((r) => r.channel === destination);

  const setField = (name: keyof Fields | 'amount' | 'note', value: string) => {
    setErrors((e) => {
      const { [name]: _cleared, ...rest } = e;
      return rest;
    });
    if (name === 'amount') setAmount(value);
    else if (name === 'note') setNote(value);
    else setFields((f) => ({ ...f, [name]: value }));
  };

  const onSource = (value: string) => {
    if (!isChannelId(value)) return;
    const next = firstValidDestination(value, destination) ?? destination;
    setChannels([value, next]);
    const nextCurrency = CHANNELS[value].currency;
    setAmount((a) => cleanAmount(a, nextCurrency === 'USD' || nextCurrency === 'EUR'));
    setErrors({});
  };
  const onDestination = (value: string) => {
    if (!isChannelId(value)) return;
    setChannels([source, firstValidDestination(source, value) ?? value]);
    setErrors({});
  };

  const applySaved = (id: string) => {
    const r = saved.find((x) => x.id === id);
    if (!r) return;
    setFields({
      recipient_name: r.recipient_name ?? '', recipient_email: r.recipient_email ?? '', recipient_phone: r.recipient_phone ?? '',
      iban: r.iban ?? '', bic: r.bic ?? '',
    });
    setErrors({});
  };

  /** The payload, or null after showing the first failing rule of spec §5 (then phone, limits). */
  function validated() {
    const country = CHANNELS[destination].country;
    const phone = kind === 'mobile' && fields.recipient_phone.trim()
      ? parsePhoneNumberFromString(fields.recipient_phone, country as 'GA' | 'RW')
      : undefined;
    const details: DestinationDetails = kind === 'paypal'
      ? { recipient_email: fields.recipient_email, recipient_name: fields.recipient_name }
      : kind === 'mobile'
        ? { recipient_phone: phone?.number ?? fields.recipient_phone, recipient_name: fields.recipient_name || null }
        : { account_holder: fields.recipient_name, recipient_name: fields.recipient_name, iban: fields.iban, ...(fields.bic ? { bic: fields.bic } : {}) };
    const payload = {
      source_provider: source, destination_provider: destination, amount: amount.replace(',', '.'), currency,
      destination_details: details, source_details: note.trim() ? { note: note.trim() } : {}, save_recipient: saveRecipient,
    };
    const fail = (field: string, message: string, title?: string) => {
      setErrors({ [field]: message });
      setFormError(message);
      toast({ variant: 'destructive', title: title ?? t('form.checkTitle'), description: message });
      return null;
    };
    if (!user) return fail('form', t('validation:signInRequired'), t('form.notSignedIn'));
    const parsed = PaymentInitiateSchema.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[issue.path.length - 1] ?? 'form');
      const shown = field === 'account_holder' ? 'recipient_name' : field;
      return fail(shown, translateKey(t, issue.message), field === 'amount' ? t('form.invalidAmount') : undefined);
    }
    if (kind === 'mobile' && (!phone || !phone.isValid() || phone.country !== country)) {
      return fail('recipient_phone', t('form.phoneForCountry', { country: channelLabel(t, destination) }));
    }
    if (quote?.limit_error) {
      const limit = money(quote.limit_error.limit, currency, lng);
      return fail('amount', t(quote.limit_error.code === 'below_min' ? 'validation:amountBelowMin' : 'validation:amountAboveMax', { limit }));
    }
    setFormError(null);
    return payload;
  }

  const onReview = (e: FormEvent) => {
    e.preventDefault();
    if (validated()) setReview({ key: crypto.randomUUID() });
  };

  const onConfirm = async () => {
    const payload = validated();
    if (!payload || !review) return;
    setCreating(true);
    try {
      const res = await api<{ payment_url?: string; data: { id: string } }>('/api/payments/initiate', {
        method: 'POST', body: payload, headers: { 'Idempotency-Key': review.key },
      });
      void queryClient.invalidateQueries({ queryKey: transferKeys.all });
      if (saveRecipient) void queryClient.invalidateQueries({ queryKey: transferKeys.recipients });
      if (!res.payment_url) {
        toast({ variant: 'destructive', title: t('form.initiateFailed'), description: t('form.noPaymentUrl') });
        setCreating(false);
        return;
      }
      toast({ variant: 'success', title: t('form.initiated') });
      if (res.payment_url.startsWith('/')) navigate(res.payment_url);
      else window.location.assign(res.payment_url);
    } catch (err) {
      const message = isApiError(err) ? err.message : t('form.initiateFailed');
      if (isApiError(err) && err.fields) {
        const [field, text] = Object.entries(err.fields)[0] ?? [];
        if (field) setErrors({ [field.split('.').pop()!]: text! });
      }
      setFormError(message);
      toast({ variant: 'destructive', title: t('form.initiateFailed'), description: message });
      // A network failure keeps the review and its Idempotency-Key: confirming again cannot create a second transfer.
      if (!isApiError(err) || err.status !== 0) setReview(null);
      setCreating(false);
    }
  };

  const onReset = () => {
    setChannels(initialChannels(null));
    setAmount(DEFAULT_AMOUNT);
    setFields(EMPTY);
    setNote('');
    setSaveRecipient(false);
    setErrors({});
    setFormError(null);
    setReview(null);
  };

  const feeText = quote ? money(quote.fee, currency, lng) : '—';
  const totalText = quote ? money(quote.total, currency, lng) : '—';
  const payoutText = quote ? money(quote.payout, quote.payout_currency, lng) : '—';
  const rateText = quote ? t('form.rateValue', { from: currency, to: quote.payout_currency, rate: formatDecimalText(quote.rate, lng) }) : t('common:states.loading');
  const recipientSummary = kind === 'paypal' ? `${fields.recipient_name} · ${fields.recipient_email}`
    : kind === 'mobile' ? [fields.recipient_name, fields.recipient_phone].filter(Boolean).join(' · ')
      : `${fields.recipient_name} · ${fields.iban}`;

  const panel = (
    <Card className="h-fit p-5 sm:p-6 lg:sticky lg:top-24" aria-labelledby="transfer-summary">
      <h2 id="transfer-summary" className="text-lg font-semibold">{t('form.summary')}</h2>
      <dl className="mt-3 divide-y divide-border text-sm" aria-live="polite">
        {[
          [t('form.amountLabel'), minor > 0 ? money(minor, currency, lng) : '—', 'summary-amount'],
          [t('form.fee'), feeText, 'summary-fee'],
          [t('form.total'), totalText, 'summary-total'],
          [t('form.theyGet'), payoutText, 'summary-payout'],
          [t('form.rate'), rateText, 'summary-rate'],
          ...(note.trim() ? [[t('form.notes'), note.trim(), 'summary-notes']] : []),
        ].map(([label, value, id]) => (
          <div key={id} className="flex justify-between gap-4 py-2">
            <dt className="text-slate-700">{label}</dt>
            <dd data-testid={id} className="break-words text-right font-medium tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600">{t('form.estimate')}</p>
      {quote?.processing_time ? <p className="mt-1 text-xs text-slate-600">{t('form.delivery', { time: quote.processing_time })}</p> : null}
    </Card>
  );

  if (review) {
    return (
      <PageShell>
        <PageHeader title={t('review.title')} description={t('review.description')} />
        <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
          <Card className="p-5 sm:p-6">
            <dl className="grid gap-3 text-sm sm:grid-cols-2">
              <div><dt className="text-slate-600">{t('form.from')}</dt><dd className="font-medium">{channelLabel(t, source)}</dd></div>
              <div><dt className="text-slate-600">{t('form.to')}</dt><dd className="font-medium">{channelLabel(t, destination)}</dd></div>
              <div className="sm:col-span-2"><dt className="text-slate-600">{t('form.recipient')}</dt><dd className="break-words font-medium" data-testid="review-recipient">{recipientSummary}</dd></div>
            </dl>
            <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row">
              <Button variant="outline" onClick={() => setReview(null)} disabled={creating}>
                <ArrowLeft aria-hidden />
                {t('review.edit')}
              </Button>
              <Button onClick={onConfirm} loading={creating} data-testid="transfer-confirm">
                <Send aria-hidden />
                {creating ? t('review.creating') : t('review.confirm', { total: totalText })}
              </Button>
            </div>
            {formError ? <Alert variant="destructive" className="mt-4">{formError}</Alert> : null}
          </Card>
          {panel}
        </div>
      </PageShell>
    );
  }

  return (
    <PageShell>
      <PageHeader title={t('form.title')} description={t('form.description')} />
      <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
        <Card className="p-5 sm:p-6">
          <form noValidate onSubmit={onReview} onReset={onReset} className="grid gap-5" aria-describedby={formError ? 'transfer-form-error' : undefined}>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label={t('form.from')}>
                <Select name="source_provider" value={source} onChange={(e) => onSource(e.target.value)} data-testid="transfer-source">
                  {CHANNEL_IDS.map((id) => <option key={id} value={id}>{channelLabel(t, id)}</option>)}
                </Select>
              </FormField>
              <FormField label={t('form.to')} error={errors.destination_provider}>
                <Select name="destination_provider" value={destination} onChange={(e) => onDestination(e.target.value)} data-testid="transfer-destination">
                  {CHANNEL_IDS.map((id) => {
                    const ok = isSupportedPair(source, id);
                    return <option key={id} value={id} disabled={!ok}>{ok ? channelLabel(t, id) : t('form.notAvailable', { channel: channelLabel(t, id) })}</option>;
                  })}
                </Select>
              </FormField>
            </div>

            <FormField label={t('form.amountIn', { currency })} error={errors.amount} required hint={rateText}>
              <Input name="amount" inputMode="decimal" autoComplete="off" value={amount} data-testid="transfer-amount"
                onChange={(e) => setField('amount', cleanAmount(e.target.value, currency === 'USD' || currency === 'EUR'))} />
            </FormField>

            {saved.length > 0 ? (
              <FormField label={t('form.savedRecipients')}>
                <Select defaultValue="" onChange={(e) => applySaved(e.target.value)} data-testid="transfer-saved">
                  <option value="">{t('form.chooseSaved')}</option>
                  {saved.map((r) => (
                    <option key={r.id} value={r.id}>
                      {[r.label, r.recipient_name, r.recipient_email ?? r.recipient_phone ?? r.iban].filter(Boolean).join(' · ')}
                    </option>
                  ))}
                </Select>
              </FormField>
            ) : null}

            {kind === 'paypal' ? (
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField label={t('form.paypalEmail')} error={errors.recipient_email} required>
                  <Input type="email" name="recipient_email" autoComplete="off" value={fields.recipient_email} onChange={(e) => setField('recipient_email', e.target.value)} />
                </FormField>
                <FormField label={t('form.paypalName')} error={errors.recipient_name} required>
                  <Input name="recipient_name" autoComplete="off" value={fields.recipient_name} onChange={(e) => setField('recipient_name', e.target.value)} />
                </FormField>
              </div>
            ) : kind === 'mobile' ? (
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField label={t('form.recipientPhone')} error={errors.recipient_phone} required hint={t(destination === 'airtel_gabon' ? 'form.phoneHintGA' : 'form.phoneHintRW')}>
                  <Input type="tel" name="recipient_phone" autoComplete="off" value={fields.recipient_phone} onChange={(e) => setField('recipient_phone', e.target.value)} />
                </FormField>
                <FormField label={t('form.recipientNameOptional')} error={errors.recipient_name}>
                  <Input name="recipient_name" autoComplete="off" value={fields.recipient_name} onChange={(e) => setField('recipient_name', e.target.value)} />
                </FormField>
              </div>
            ) : (
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField label={t('form.accountHolder')} error={errors.recipient_name} required className="sm:col-span-2">
                  <Input name="account_holder" autoComplete="off" value={fields.recipient_name} onChange={(e) => setField('recipient_name', e.target.value)} />
                </FormField>
                <FormField label={t('form.iban')} error={errors.iban} required>
                  <Input name="iban" autoComplete="off" spellCheck={false} value={fields.iban} onChange={(e) => setField('iban', e.target.value.toUpperCase())} />
                </FormField>
                <FormField label={t('form.bicOptional')} error={errors.bic}>
                  <Input name="bic" autoComplete="off" spellCheck={false} value={fields.bic} onChange={(e) => setField('bic', e.target.value.toUpperCase())} />
                </FormField>
              </div>
            )}

            <FormField label={t('form.notesOptional')} error={errors.note}>
              <Textarea name="note" rows={3} maxLength={500} value={note} onChange={(e) => setField('note', e.target.value)} />
            </FormField>

            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="size-4 accent-brand-700" checked={saveRecipient} onChange={(e) => setSaveRecipient(e.target.checked)} />
              {t('form.saveRecipient')}
            </label>

            {formError ? <Alert id="transfer-form-error" variant="destructive">{formError}</Alert> : null}

            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="reset" variant="outline">{t('common:actions.reset')}</Button>
              <Button type="submit" data-testid="transfer-review">{t('form.review')}</Button>
            </div>
          </form>
        </Card>
        {panel}
      </div>
      <p className="mt-6 text-sm text-slate-700">
        {t('form.feesLink')} <Link className="font-medium text-brand-700 underline" to="/fees">{t('form.feesLinkText')}</Link>
      </p>
    </PageShell>
  );
}

