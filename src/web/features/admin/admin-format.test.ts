import { describe, expect, it } from 'vitest';
import { addressText, amountText, changeSummary, evidenceText, requesterName, scoreText } from './admin-format';

describe('back-office display rules', () => {
  it('shows a requester by full name, else e-mail, else profile id', () => {
    expect(requesterName({ full_name: 'Awa Diallo', email: 'awa@example.test', profile_id: 'p1' })).toBe('Awa Diallo');
    expect(requesterName({ full_name: '  ', email: 'awa@example.test', profile_id: 'p1' })).toBe('awa@example.test');
    expect(requesterName({ full_name: null, email: null, profile_id: 'p1' })).toBe('p1');
  });

  it('names an address\'s region as the sender\'s screens do, in the staff member\'s language', () => {
    const kept = { line: '12 rue de la Paix', city: 'Libreville', state: 'Estuaire Province', country: 'GA' };
    expect(addressText(kept, 'fr')).toBe('12 rue de la Paix, Libreville, Estuaire, GA');
    expect(addressText(kept, 'en')).toBe('12 rue de la Paix, Libreville, Estuaire Province, GA');
    expect(addressText({ line: null, city: 'Kigali', state: 'Kigali district', country: 'RW' }, 'en')).toBe('Kigali, Kigali City, RW');
    expect(addressText({ line: null, city: null, state: null, country: 'FR' }, 'fr')).toBe('FR');
  });

  it('writes a screening score and an alert\'s measured values in the staff member\'s language', () => {
    expect(scoreText(0.92, 'en')).toBe('0.92');
    expect(scoreText(0.92, 'fr')).toBe('0,92');
    expect(scoreText(1, 'fr')).toBe('1,00');
    expect(evidenceText('12.5', 'fr')).toBe('12,5');
    expect(evidenceText('12.5', 'en')).toBe('12.5');
    expect(evidenceText('1000.00', 'fr')).toBe('1\u202f000,00');
    expect(evidenceText('1000.00', 'en')).toBe('1,000.00');
    expect(evidenceText('21', 'fr')).toBe('21');
    expect(evidenceText('n/a', 'fr')).toBe('n/a');
  });

  it('formats amounts exactly in their currency', () => {
    expect(amountText('60000.00', 'XAF', 'en')).toMatch(/60,000/);
    expect(amountText('104.50', 'USD', 'en')).toBe('$104.50');
    expect(amountText('5', 'GBP', 'en')).toBe('5 GBP');
  });

  it('reads an audit change in words when given them: fields and known values named, French colon', () => {
    const words = {
      field: (k: string) => ({ role: 'Rôle', status: 'Statut' } as Record<string, string>)[k] ?? k,
      value: (k: string, v: unknown) => (k === 'role' ? ({ user: 'Utilisateur', manager: 'Gestionnaire' } as Record<string, string>)[String(v)] ?? null : null),
      colon: '\u00a0: ',
    };
    expect(changeSummary({ role: 'user' }, { role: 'manager' }, words)).toEqual(['Rôle\u00a0: Utilisateur → Gestionnaire']);
    expect(changeSummary({ role: 'user', note: null }, { role: 'owner', note: 'x' }, words)).toEqual(['Rôle\u00a0: Utilisateur → owner', 'note\u00a0: — → x']);
  });

  it('says what an audit row changed, field by field', () => {
    expect(changeSummary({ id: 't1', percentage: '0.045', min_fee: null, updated_at: 'a' }, { id: 't1', percentage: '0.044', min_fee: null, updated_at: 'b' }))
      .toEqual(['percentage: 0.045 → 0.044']);
    expect(changeSummary({ status: 'pending' }, { status: 'processing', note: 'Checked' })).toEqual(['status: pending → processing', 'note: Checked']);
    expect(changeSummary({ status: 'processing' }, { status: 'completed', note: null })).toEqual(['status: processing → completed']);
    expect(changeSummary(null, { currency: 'USD', amount: '1000' })).toEqual(['currency: USD', 'amount: 1000']);
    expect(changeSummary({ max_amount: null }, null)).toEqual(['max_amount: —']);
    expect(changeSummary(null, { body: 'x'.repeat(200) })[0]).toHaveLength('body: '.length + 80);
    expect(changeSummary(null, null)).toEqual([]);
  });
});
