import type { TFunction } from 'i18next';
import { isApiError } from './api';

/** A shared-schema message key ("validation.cityRequired", "auth.errors.x") in the current language. */
export function translateKey(t: TFunction, key: string | undefined): string {
  if (!key) return '';
  const [ns, ...rest] = key.split('.');
  return rest.length ? t(rest.join('.'), { ns, defaultValue: key }) : t(key);
}

/** The server's message for a failed call, else the fallback. */
export function errorText(error: unknown, fallback: string): string {
  if (isApiError(error) && error.message) return error.message;
  return fallback;
}
