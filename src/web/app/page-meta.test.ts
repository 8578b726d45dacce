import { describe, expect, it } from 'vitest';
import { metaKeyFor } from './page-meta';

describe('route titles', () => {
  it('maps every route to its meta entry', () => {
    expect(metaKeyFor('/')).toBe('home');
    expect(metaKeyFor('/fees/')).toBe('fees');
    expect(metaKeyFor('/reset-password')).toBe('resetPassword');
    expect(metaKeyFor('/pay/3f2a')).toBe('payment');
    expect(metaKeyFor('/dev/outbox')).toBe('outbox');
    expect(metaKeyFor('/nowhere')).toBe('notFound');
  });
});
