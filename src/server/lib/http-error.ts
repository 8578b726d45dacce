import { AppError, ERRORS, Message, wireCode, type MessageVars } from '@core/errors.js';
import { t, type Lang } from '../i18n.js';

/** A refusal's answer in the caller's language: the one place a thrown code becomes text (plugins/error-handler.ts). */
export function errorAnswer(error: AppError, lang: Lang): { status: number; body: Record<string, unknown> } {
  const { fields, vars = {}, extra = {} } = error.details;
  const translate = (value: unknown): unknown => {
    if (value instanceof Message) return t(lang, value.key, varsIn(value.vars));
    if (Array.isArray(value)) return value.map(translate);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, translate(v)]));
    return value;
  };
  const varsIn = (given: MessageVars): Record<string, string | number> =>
    Object.fromEntries(Object.entries(given).map(([k, v]) => [k, typeof v === 'function' ? v(lang) : v instanceof Message ? t(lang, v.key, varsIn(v.vars)) : v]));
  const own = varsIn(vars);
  const fieldTexts = fields && Object.fromEntries(Object.entries(fields).map(([name, m]) =>
    [name, typeof m === 'string' ? t(lang, m, own) : t(lang, m.key, varsIn(m.vars))]));
  const first = fieldTexts && Object.values(fieldTexts)[0];
  const message = error.code === 'validation_failed' && first !== undefined ? first : t(lang, ERRORS[error.code].key, own);
  return {
    status: error.status,
    body: { error: message, code: wireCode(error.code), ...(fieldTexts ? { fields: fieldTexts } : {}), ...(translate(extra) as object) },
  };
}
