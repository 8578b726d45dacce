import { describe, expect, it } from 'vitest';
import { passwordScore, passwordStrength } from './password.js';

describe('passwordScore', () => {
  it.each([
    ['', 0],
    ['abc', 0],
    ['abcdef', 1],
    ['abcdefghij', 2],
    ['Abcdef', 2],
    ['abcde1', 2],
    ['abcde!', 2],
    ['Abcdefghi1', 4],
    ['Abcdefgh1!', 5],
    ['A1!', 3],
    ['mot de passe', 3],
  ] as const)('%j scores %d', (pw, score) => {
    expect(passwordScore(pw)).toBe(score);
  });
});

describe('passwordStrength', () => {
  it('is weak below 2, fair at 2-3, strong at 4+', () => {
    expect([0, 1, 2, 3, 4, 5].map(passwordStrength)).toEqual(['weak', 'weak', 'fair', 'fair', 'strong', 'strong']);
  });
});
