import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkNewPassword } from './new-password';

const Schema = z.object({ password: z.string(), confirm: z.string() }).superRefine(checkNewPassword);
const issues = (password: string, confirm: string) =>
  Schema.safeParse({ password, confirm }).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('checkNewPassword', () => {
  it('reports the shared password rule and a mismatch together', () => {
    expect(issues('', 'x')).toEqual([['password', 'validation.passwordRequired'], ['confirm', 'auth.reset.mismatch']]);
    expect(issues('short', 'short')).toEqual([['password', 'validation.passwordTooShort']]);
  });

  it('accepts a long enough password typed twice', () => {
    expect(issues('Harbor-Lantern-42', 'Harbor-Lantern-42')).toEqual([]);
  });
});
