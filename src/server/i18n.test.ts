import { describe, expect, it } from 'vitest';
import { t } from './i18n.js';

describe('server messages', () => {
  it('picks the plural form the count needs, in English and French', () => {
    expect(t('en', 'errors.rateLimited', { count: 1 })).toBe('Too many attempts. Please try again in 1 minute.');
    expect(t('en', 'errors.rateLimited', { count: 2 })).toBe('Too many attempts. Please try again in 2 minutes.');
    expect(t('fr', 'errors.rateLimited', { count: 1 })).toBe('Trop de tentatives. Veuillez réessayer dans 1 minute.');
    expect(t('fr', 'errors.rateLimited', { count: 2 })).toBe('Trop de tentatives. Veuillez réessayer dans 2 minutes.');
    // French counts zero as one.
    expect(t('fr', 'errors.rateLimited', { count: 0 })).toBe('Trop de tentatives. Veuillez réessayer dans 0 minute.');
  });

  it('fills {{variables}}, and leaves nothing of one not given', () => {
    expect(t('en', 'auth.register.codeSent', { email: 'ada@example.test' })).toContain('ada@example.test');
    expect(t('en', 'auth.register.codeSent')).not.toContain('{{');
  });

  it('passes plain text and unknown keys through as they are', () => {
    expect(t('en', 'Failed: the provider said no. Try again.')).toBe('Failed: the provider said no. Try again.');
    expect(t('fr', 'no.such.key')).toBe('no.such.key');
  });
});
