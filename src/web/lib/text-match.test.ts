import { describe, expect, it } from 'vitest';
import { fold, stem, textMatcher } from './text-match';

const finds = (query: string, text: string) => textMatcher(query)(text);

describe('text search', () => {
  it('ignores case, accents and ligatures', () => {
    expect(fold('Sécurité ŒUVRE')).toBe('securite oeuvre');
    expect(finds('SECURITE', 'La sécurité de vos données')).toBe(true);
    expect(finds('sécurité', 'Security and SECURITE')).toBe(true);
  });

  it('gives French and English words of one family one stem', () => {
    for (const family of [
      ['remboursement', 'remboursé', 'remboursés', 'rembourser', 'remboursements'],
      ['annulation', 'annulé', 'annuler', 'annulée'],
      ['refund', 'refunds', 'refunded', 'refunding'],
      ['cancel', 'cancelled', 'cancellation', 'cancels'],
      ['limit', 'limits', 'limite', 'limites'],
    ]) {
      expect(new Set(family.map((w) => stem(fold(w)))).size, family.join()).toBe(1);
    }
  });

  it('finds the FAQ answers by another form of their words', () => {
    expect(finds('remboursement', 'il est remboursé sur le compte qui a payé')).toBe(true);
    expect(finds('refunds', 'We refund the account that paid.')).toBe(true);
    expect(finds('Remboursements annulés', 'Un transfert annulé est remboursé.')).toBe(true);
  });

  it('matches words as they are typed, every word typed', () => {
    expect(finds('rembourseme', 'Remboursement sous 5 jours')).toBe(true);
    expect(finds('remb', 'il est remboursé')).toBe(true);
    expect(finds('remboursement carte', 'il est remboursé')).toBe(false);
    expect(finds('virement', 'il est remboursé')).toBe(false);
    expect(finds('  ', 'anything')).toBe(true);
  });
});
