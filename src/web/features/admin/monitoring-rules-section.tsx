import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { readAmount } from '@core/amount-input';
import { isCurrency, localizeDecimal, parseAmount, toDecimal } from '@core/money';
import { THRESHOLD_BOUNDS, type ThresholdKind } from '@core/monitoring/rules';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { CheckboxField, Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { useMonitoringRules, useUpdateMonitoringRule, type MonitoringRuleState } from './monitoring-api';

// The admin edits the monitoring rules (docs/rules/monitoring.md#settings): each rule on or off,
// whether it holds, and its thresholds (whole numbers, or amounts typed the admin's way).

type Values = { enabled: boolean; holds: boolean } & Record<string, string | boolean>;

function shown(value: number | string, kind: ThresholdKind, currency: string | undefined, lng: string): string {
  if (kind !== 'amount') return String(value);
  const c = currency && isCurrency(currency) ? currency : 'EUR';
  const minor = parseAmount(String(value), c);
  return minor === null ? String(value) : localizeDecimal(toDecimal(minor, c), lng);
}

function ruleSchema(rule: MonitoringRuleState, lng: string, t: TFunction) {
  return z.record(z.string(), z.union([z.string(), z.boolean()])).transform((v, ctx) => {
    const thresholds: Record<string, number | string> = {};
    for (const field of rule.fields) {
      const text = String(v[field.key] ?? '').trim();
      const bad = () => ctx.addIssue({ code: 'custom', path: [field.key], message: t('validation.monitoringThresholdInvalid') });
      if (field.kind === 'amount') {
        const currency = field.currency && isCurrency(field.currency) ? field.currency : 'EUR';
        const reading = readAmount(text, currency, lng);
        if (reading.error !== undefined || reading.minor <= 0) { bad(); continue; }
        thresholds[field.key] = toDecimal(reading.minor, currency);
      } else {
        const n = Number(text);
        const bounds = THRESHOLD_BOUNDS[field.kind];
        if (!/^\d+$/.test(text) || n < bounds.min || n > bounds.max) { bad(); continue; }
        thresholds[field.key] = n;
      }
    }
    return { enabled: Boolean(v.enabled), holds: Boolean(v.holds), thresholds };
  });
}

function RuleForm({ rule }: { rule: MonitoringRuleState }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const current: Values = { enabled: rule.enabled, holds: rule.holds };
  for (const f of rule.fields) current[f.key] = shown(rule.thresholds[f.key] ?? '', f.kind, f.currency, lng);
  const form = useZodForm(ruleSchema(rule, lng, t), current);
  const save = useUpdateMonitoringRule();
  const { toast } = useToast();
  const { reset } = form;
  const signature = JSON.stringify(current);
  useEffect(() => reset(JSON.parse(signature) as Values), [signature, reset]);
  const name = t(`monitoring.rules.${rule.rule}.name`);

  return (
    <Card className="p-4">
      <Form
        form={form}
        onSubmit={async (body) => {
          await save.mutateAsync({ rule: rule.rule, ...body });
          toast({ variant: 'success', title: t('monitoring.settings.saved') });
        }}
        fallbackError={t('states.error', { ns: 'common' })}
        className="flex flex-col gap-3"
        aria-label={name}
        data-testid={`rule-${rule.rule}`}
      >
        <div>
          <h4 className="font-semibold text-slate-900">{name}</h4>
          <p className="text-sm text-muted-foreground">{t(`monitoring.rules.${rule.rule}.description`)}</p>
        </div>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <CheckboxField name="enabled" label={t('monitoring.settings.enabled')} />
          <CheckboxField name="holds" label={t('monitoring.settings.holds')} />
        </div>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {rule.fields.map((f) => (
            <Field
              key={f.key}
              name={f.key}
              label={t(`monitoring.fields.${f.key}`)}
              hint={t('monitoring.settings.default', { value: shown(rule.defaults.thresholds[f.key] ?? '', f.kind, f.currency, lng) })}
            >
              <Input inputMode={f.kind === 'amount' ? 'decimal' : 'numeric'} autoComplete="off" />
            </Field>
          ))}
        </div>
        <FormError />
        <div><SubmitButton>{t('monitoring.settings.save')}</SubmitButton></div>
      </Form>
    </Card>
  );
}

/** The monitoring rules' settings (admin). */
export function MonitoringRulesSection() {
  const { t } = useTranslation(['admin', 'common']);
  const rules = useMonitoringRules();
  return (
    <section aria-labelledby="monitoring-rules-heading" className="flex flex-col gap-3">
      <h3 id="monitoring-rules-heading" className="text-lg font-semibold text-slate-900">{t('monitoring.settings.title')}</h3>
      <p className="text-sm text-muted-foreground">{t('monitoring.settings.intro')}</p>
      {rules.isPending ? <LoadingState /> : rules.isError ? (
        <Alert variant="destructive">{t('monitoring.settings.load')}</Alert>
      ) : (
        <div className="flex flex-col gap-3">
          {rules.data.map((rule) => <RuleForm key={rule.rule} rule={rule} />)}
        </div>
      )}
    </section>
  );
}
