import type { TFunction } from 'i18next';

/** A shared-schema message key ("validation.amountInvalid") in the current language. */
export function translateKey(t: TFunction, key: string): string {
  const [ns, ...rest] = key.split('.');
  return rest.length ? t(rest.join('.'), { ns }) : t(key);
}
