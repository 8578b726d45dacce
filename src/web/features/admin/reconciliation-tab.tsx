import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { BookLine, ReconciliationSummary, StatementLine } from '@core/api/reconciliation';
import { StatementBalanceSchema } from '@core/api/reconciliation';
import type { ChannelId } from '@core/channels';
import { PROVIDER_ACCOUNTS } from '@core/ledger';
import type { Currency } from '@core/money';
import { isCalendarDay, parseSignedMinor } from '@core/reconciliation';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { parseInto, useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { channelLabel, formatDate, formatDateTime } from '@web/lib/format';
import { useUnmatchedBankLines } from './bank-api';
import { FrozenMoneySection } from './frozen-money-section';
import { OperatorStatementsSection } from './operator-statements-section';
import {
  signedMoney, useImportStatement, useReconciliation, useReconciliationView, useRecordBalance, useRematch, type ReconciliationView,
} from './reconciliation-api';

// Reconciliation (docs/rules/money-states.md#reconciliation): each provider account's book
// balance beside its statement, a statement's balance or lines entered, and what explains a
// difference: the book lines no statement holds (with their transfers) and the statement lines
// the books lack.

/** Checks what the currency cannot hold before the server is asked; an empty date means today. */
function balanceFormSchema(currency: Currency) {
  return z.object({ balance: z.string(), as_of: z.string() }).transform((v, ctx) => {
    const balance = v.balance.trim();
    if (parseSignedMinor(balance, currency) === null) {
      ctx.addIssue({ code: 'custom', message: 'admin.reconciliation.balanceInvalid', path: ['balance'] });
    }
    if (v.as_of && !isCalendarDay(v.as_of)) ctx.addIssue({ code: 'custom', message: 'admin.reconciliation.asOfInvalid', path: ['as_of'] });
    return parseInto(StatementBalanceSchema, { balance, ...(v.as_of ? { as_of: v.as_of } : {}) }, ctx);
  });
}

function importFormSchema(currency: Currency) {
  return z.object({ file: z.unknown(), balance: z.string(), as_of: z.string() }).transform((v, ctx) => {
    const file = typeof File !== 'undefined' && v.file instanceof File ? v.file : null;
    if (!file) ctx.addIssue({ code: 'custom', message: 'admin.reconciliation.fileMissing', path: ['file'] });
    const balance = v.balance.trim();
    if (balance && parseSignedMinor(balance, currency) === null) {
      ctx.addIssue({ code: 'custom', message: 'admin.reconciliation.balanceInvalid', path: ['balance'] });
    }
    if (v.as_of && !isCalendarDay(v.as_of)) ctx.addIssue({ code: 'custom', message: 'admin.reconciliation.asOfInvalid', path: ['as_of'] });
    return { file: file!, balance: balance || undefined, as_of: v.as_of || undefined };
  });
}

function BalanceForm({ account, currency }: { account: ChannelId; currency: Currency }) {
  const { t } = useTranslation(['admin', 'common']);
  const form = useZodForm(balanceFormSchema(currency), { balance: '', as_of: '' });
  const save = useRecordBalance(account);
  const { toast } = useToast();
  return (
    <Form
      form={form}
      onSubmit={async (body) => {
        await save.mutateAsync({ balance: String(body.balance), ...(body.as_of ? { as_of: body.as_of } : {}) });
        form.reset({ balance: '', as_of: '' });
        toast({ variant: 'success', title: t('reconciliation.balanceForm.saved') });
      }}
      fallbackError={t('states.error', { ns: 'common' })}
      className="flex flex-col gap-3"
      aria-labelledby={`balance-form-${account}`}
    >
      <h4 id={`balance-form-${account}`} className="font-semibold text-slate-900">{t('reconciliation.balanceForm.title')}</h4>
      <Field name="balance" label={t('reconciliation.balanceForm.balance', { currency })} hint={t('reconciliation.balanceForm.balanceHint')} required>
        <Input inputMode="decimal" autoComplete="off" />
      </Field>
      <Field name="as_of" label={t('reconciliation.balanceForm.asOf')} hint={t('reconciliation.balanceForm.asOfHint')}>
        <Input type="date" />
      </Field>
      <FormError />
      <SubmitButton className="self-start">{t('reconciliation.balanceForm.submit')}</SubmitButton>
    </Form>
  );
}

interface LineError { line: number; column: string; message: string }

function ImportForm({ account, currency }: { account: ChannelId; currency: Currency }) {
  const { t } = useTranslation(['admin', 'common']);
  const form = useZodForm(importFormSchema(currency), { file: null, balance: '', as_of: '' });
  const upload = useImportStatement(account);
  const { toast } = useToast();
  const [lineErrors, setLineErrors] = useState<{ shown: LineError[]; count: number } | null>(null);
  // A new input after each import, so the chosen file is cleared with the form.
  const [inputKey, setInputKey] = useState(0);
  return (
    <Form
      form={form}
      onSubmit={async (body) => {
        setLineErrors(null);
        const { data } = await upload.mutateAsync(body);
        form.reset({ file: null, balance: '', as_of: '' });
        setInputKey((k) => k + 1);
        toast({ variant: 'success', title: t('reconciliation.importForm.imported', { count: data.lines, matched: data.matched }) });
      }}
      onFailure={(error) => {
        const body = isApiError(error) ? error.body as { lines?: LineError[]; fields?: Record<string, string> } | undefined : undefined;
        if (body?.lines?.length) setLineErrors({ shown: body.lines, count: Object.keys(body.fields ?? {}).length });
      }}
      fallbackError={t('states.error', { ns: 'common' })}
      className="flex flex-col gap-3"
      aria-labelledby={`import-form-${account}`}
    >
      <h4 id={`import-form-${account}`} className="font-semibold text-slate-900">{t('reconciliation.importForm.title')}</h4>
      <Field name="file" label={t('reconciliation.importForm.file')} hint={t('reconciliation.importForm.fileHint')} required>
        {({ name, onChange, onBlur, ref }) => (
          <Input key={inputKey} type="file" name={name} accept=".csv,text/csv" ref={ref} onBlur={onBlur}
            onChange={(e) => { setLineErrors(null); onChange(e.target.files?.[0] ?? null); }} />
        )}
      </Field>
      <Field name="balance" label={t('reconciliation.importForm.balance', { currency })}>
        <Input inputMode="decimal" autoComplete="off" />
      </Field>
      <Field name="as_of" label={t('reconciliation.balanceForm.asOf')}>
        <Input type="date" />
      </Field>
      <FormError />
      {lineErrors ? (
        <div className="rounded-md border border-destructive/40 p-3 text-sm" data-testid="csv-errors">
          <p className="font-medium text-destructive">{t('reconciliation.importForm.errorsTitle')}</p>
          <ul className="mt-1 list-disc pl-5">
            {lineErrors.shown.map((e) => <li key={`${e.line}-${e.column}`}>{e.message}</li>)}
          </ul>
          {lineErrors.count > lineErrors.shown.length ? (
            <p className="mt-1 text-muted-foreground">{t('reconciliation.importForm.moreErrors', { count: lineErrors.count - lineErrors.shown.length })}</p>
          ) : null}
        </div>
      ) : null}
      <SubmitButton className="self-start">{t('reconciliation.importForm.submit')}</SubmitButton>
    </Form>
  );
}

/**
 * A figure with its label, stacked. In a row of figures that wrap (`Figures`), each takes the width
 * its money needs, so "FCFA 62,520" is never cut at its comma; only a figure wider than the whole
 * row breaks.
 */
function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <div className="flex min-w-0 max-w-full flex-col">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words text-lg font-semibold tabular-nums text-slate-900" data-testid={testId}>{value}</dd>
      {hint ? <dd className="text-xs text-muted-foreground">{hint}</dd> : null}
    </div>
  );
}

function BookLineItem({ line, currency }: { line: BookLine; currency: Currency }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const transfer = line.transfer;
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-border py-2 last:border-0" data-testid="book-line">
      <div className="flex min-w-0 flex-col">
        <span className="font-medium">
          {transfer ? t('reconciliation.lists.transfer', { reference: transfer.reference }) : t('reconciliation.lists.noTransfer')}
          {' · '}{t(`reconciliation.lists.kinds.${line.kind}`)}
        </span>
        <span className="text-xs text-muted-foreground">
          {[
            transfer?.sender_name ? t('reconciliation.lists.sender', { name: transfer.sender_name }) : null,
            transfer ? t('reconciliation.lists.sent', { amount: signedMoney(transfer.total, transfer.currency, lng) }) : null,
            line.reference ?? t('reconciliation.lists.noReference'),
            formatDateTime(line.created_at, lng),
          ].filter(Boolean).join(' · ')}
        </span>
      </div>
      <span className="font-semibold tabular-nums">{signedMoney(line.amount, currency, lng)}</span>
    </li>
  );
}

/** A statement line the books lack: from a CSV import, or a bank statement's (camt) line the bank rail matched to nothing. */
type BoardLine = StatementLine & { source: 'csv' | 'camt' };

function StatementLineItem({ line, currency }: { line: BoardLine; currency: Currency }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-border py-2 last:border-0" data-testid="statement-line" data-source={line.source}>
      <div className="flex min-w-0 flex-col">
        <span className="font-medium break-words">{line.reference ?? t('reconciliation.lists.noReference')}</span>
        <span className="text-xs text-muted-foreground break-words">
          {[line.description, line.posted_on ? t('reconciliation.lists.posted', { day: formatDate(`${line.posted_on}T12:00:00Z`, lng) }) : null].filter(Boolean).join(' · ')}
        </span>
      </div>
      <div className="flex items-baseline gap-2">
        <Badge variant={line.source === 'camt' ? 'blue' : 'secondary'}>{t(line.source === 'camt' ? 'reconciliation.lists.sourceCamt' : 'reconciliation.lists.sourceCsv')}</Badge>
        <span className="font-semibold tabular-nums">{signedMoney(line.amount, currency, lng)}</span>
      </div>
    </li>
  );
}

/**
 * The statement lines the books lack, in one list: the account's CSV lines and, on the French
 * bank account's board (the business's bank account), the bank statements' lines that matched
 * nothing; newest first, each with its source.
 */
function UnmatchedStatementList({ view }: { view: ReconciliationView }) {
  const { t } = useTranslation('admin');
  const bank = useUnmatchedBankLines(view.account === 'bank_france');
  const camt: BoardLine[] = (bank.data?.lines ?? []).map((l) => ({
    id: l.id, statement_id: l.statement_id, posted_on: l.booked_on, reference: l.reference, description: l.description, amount: l.amount, source: 'camt',
  }));
  const items = [...view.unmatched_statement.map((l): BoardLine => ({ ...l, source: 'csv' })), ...camt]
    .sort((a, b) => (b.posted_on ?? '').localeCompare(a.posted_on ?? ''));
  const count = view.unmatched_statement_lines + (bank.data?.count ?? 0);
  return (
    <LineList title={t('reconciliation.lists.statement', { count })}
      count={count} items={items} empty={t('reconciliation.lists.emptyStatement')} testId="unmatched-statement"
      render={(l) => <StatementLineItem key={`${l.source}-${l.id}`} line={l} currency={view.currency} />} />
  );
}

function LineList<T>({ title, hint, count, items, empty, render, testId }: {
  title: string; hint?: string; count: number; items: T[]; empty: string; render: (item: T) => ReactNode; testId: string;
}) {
  const { t } = useTranslation('admin');
  return (
    <section aria-label={title} className="flex flex-col gap-1" data-testid={testId}>
      <h4 className="font-semibold text-slate-900">{title}</h4>
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      {items.length === 0 ? <p className="text-sm text-muted-foreground">{empty}</p> : (
        <>
          <ul className="text-sm">{items.map(render)}</ul>
          {count > items.length ? <p className="text-xs text-muted-foreground">{t('reconciliation.lists.showing', { shown: items.length, count })}</p> : null}
        </>
      )}
    </section>
  );
}

function AccountDetail({ view }: { view: ReconciliationView }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const { account, currency } = view;
  const rematch = useRematch(account);
  const { toast } = useToast();
  const name = channelLabel(t, account);
  async function again() {
    try {
      const { data } = await rematch.mutateAsync();
      toast({ variant: 'success', title: t('reconciliation.rematched', { count: data.matched }) });
    } catch (e) {
      toast({ variant: 'destructive', title: isApiError(e) ? e.message : t('states.error', { ns: 'common' }) });
    }
  }
  return (
    <Card role="region" aria-labelledby={`reconciliation-detail-${account}`} className="flex flex-col gap-5 p-4 sm:p-5" data-testid="reconciliation-detail">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`reconciliation-detail-${account}`} className="text-lg font-semibold text-slate-900">{name}</h3>
        <Button size="sm" variant="outline" loading={rematch.isPending} onClick={() => void again()}>{t('reconciliation.rematch')}</Button>
      </div>
      <dl className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2 lg:grid-cols-3">
        <Figure label={t('reconciliation.unmatchedBookTotal')} value={signedMoney(view.unmatched_book_total, currency, lng)} testId="unmatched-book-total" />
        <Figure label={t('reconciliation.unmatchedStatementTotal')} value={signedMoney(view.unmatched_statement_total, currency, lng)} testId="unmatched-statement-total" />
        {view.unexplained !== null ? (
          <Figure label={t('reconciliation.unexplained')} value={signedMoney(view.unexplained, currency, lng)} hint={t('reconciliation.unexplainedHint')} testId="unexplained" />
        ) : null}
      </dl>
      <div className="grid gap-6 md:grid-cols-2">
        <BalanceForm account={account} currency={currency} />
        <ImportForm account={account} currency={currency} />
      </div>
      <LineList title={t('reconciliation.lists.book', { count: view.unmatched_book_lines })} hint={t('reconciliation.lists.bookHint')}
        count={view.unmatched_book_lines} items={view.unmatched_book} empty={t('reconciliation.lists.emptyBook')} testId="unmatched-book"
        render={(l) => <BookLineItem key={l.id} line={l} currency={currency} />} />
      <UnmatchedStatementList view={view} />
      <LineList title={t('reconciliation.lists.matched', { count: view.matched })}
        count={view.matched} items={view.matched_lines} empty={t('reconciliation.lists.emptyMatched')} testId="matched"
        render={(m) => <BookLineItem key={m.book_line.id} line={m.book_line} currency={currency} />} />
    </Card>
  );
}

function AccountView({ account }: { account: ChannelId }) {
  const { t } = useTranslation(['admin', 'common']);
  const view = useReconciliationView(account);
  if (view.isPending) return <LoadingState />;
  if (view.isError) return <Alert variant="destructive">{isApiError(view.error) ? view.error.message : t('states.error', { ns: 'common' })}</Alert>;
  return <AccountDetail view={view.data} />;
}

function AccountCard({ summary, selected, onSelect }: { summary: ReconciliationSummary; selected: boolean; onSelect: () => void }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const { currency } = summary;
  const name = channelLabel(t, summary.account);
  const agree = summary.difference !== null && parseSignedMinor(summary.difference, currency) === 0;
  return (
    <li data-testid={`reconciliation-${summary.account}`}>
      <Card className={`flex h-full flex-col gap-3 p-4 ${selected ? 'ring-2 ring-brand-700' : ''}`}>
        <h3 className="font-semibold text-slate-900">{name}</h3>
        <dl className="flex flex-wrap gap-x-6 gap-y-3">
          <Figure label={t('reconciliation.book')} value={signedMoney(summary.book_balance, currency, lng)} testId="book-balance" />
          <Figure
            label={t('reconciliation.statement')}
            value={summary.statement?.balance != null ? signedMoney(summary.statement.balance, currency, lng) : '—'}
            hint={summary.statement ? t('reconciliation.asOf', { when: formatDate(summary.statement.as_of, lng) }) : t('reconciliation.noStatement')}
            testId="statement-balance"
          />
          <Figure label={t('reconciliation.difference')} value={summary.difference !== null ? signedMoney(summary.difference, currency, lng) : '—'}
            hint={agree ? t('reconciliation.agree') : undefined} testId="difference" />
        </dl>
        <p className="text-xs text-muted-foreground">
          {t('reconciliation.counts', { matched: summary.matched, book: summary.unmatched_book_lines, statement: summary.unmatched_statement_lines })}
        </p>
        <Button size="sm" variant={selected ? 'default' : 'outline'} className="mt-auto self-start" aria-pressed={selected}
          aria-label={t('reconciliation.showAccount', { account: name })} onClick={onSelect}>
          {selected ? t('reconciliation.selected') : t('reconciliation.show')}
        </Button>
      </Card>
    </li>
  );
}

export function ReconciliationTab() {
  const { t } = useTranslation(['admin', 'common']);
  const accounts = useReconciliation();
  const [account, setAccount] = useState<ChannelId>(PROVIDER_ACCOUNTS[0]!);
  // The chosen account's details are below every card: on a phone, five cards below the button.
  const detail = useRef<HTMLDivElement>(null);
  const select = (next: ChannelId) => {
    setAccount(next);
    requestAnimationFrame(() => detail.current?.scrollIntoView({ block: 'start' }));
  };
  return (
    <section aria-labelledby="reconciliation-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="reconciliation-heading" className="text-xl font-semibold text-slate-900">{t('reconciliation.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('reconciliation.description')}</p>
      </div>
      {accounts.isPending ? <LoadingState /> : accounts.isError ? (
        <Alert variant="destructive">{isApiError(accounts.error) ? accounts.error.message : t('states.error', { ns: 'common' })}</Alert>
      ) : accounts.data.length === 0 ? <EmptyState title={t('reconciliation.noStatement')} /> : (
        <>
          {/* Three cards a row at most: narrower, a card's figures no longer sit two by two. */}
          <ul aria-label={t('reconciliation.accountsLabel')} className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {accounts.data.map((s) => (
              <AccountCard key={s.account} summary={s} selected={s.account === account} onSelect={() => select(s.account)} />
            ))}
          </ul>
          {/* Below the sticky header once scrolled to. */}
          <div ref={detail} className="scroll-mt-20">
            <AccountView account={account} />
          </div>
        </>
      )}
      <FrozenMoneySection />
      <OperatorStatementsSection />
    </section>
  );
}
