import { describe, expect, it } from 'vitest';
import type { KycDocument } from '@core/api/kyc';
import { idKindOf, keptDocuments, slotsForMissing } from './verify-slots';

// What the "Verify my identity" page asks for after staff asked for more (docs/rules/know-your-sender.md#reviews).

const doc = (id: string, kind: KycDocument['kind'], side: KycDocument['side'], status: KycDocument['status']): KycDocument =>
  ({ id, kind, side, status, content_type: 'image/jpeg', size: 1000, uploaded_at: '2026-11-28T10:00:00.000Z' });

describe('after "ask for more"', () => {
  it('asks only for what the server says is missing: one side of a card, or the whole identity document of the type chosen before', () => {
    expect(slotsForMissing(['id_card_back'], 'id_card')).toEqual([{ kind: 'id_card', side: 'back' }]);
    expect(slotsForMissing(['residence_permit_front', 'proof_of_address'], 'id_card'))
      .toEqual([{ kind: 'residence_permit', side: 'front' }, { kind: 'proof_of_address', side: null }]);
    expect(slotsForMissing(['identity_document', 'selfie'], 'passport')).toEqual([{ kind: 'passport', side: null }, { kind: 'selfie', side: null }]);
  });

  it('keeps the type of identity document sent before, one not rejected first', () => {
    // Newest first, as GET /api/kyc/documents answers.
    expect(idKindOf([doc('3', 'passport', null, 'rejected'), doc('2', 'residence_permit', 'back', 'accepted'), doc('1', 'selfie', null, 'accepted')])).toBe('residence_permit');
    expect(idKindOf([doc('1', 'passport', null, 'rejected')])).toBe('passport');
    expect(idKindOf([doc('1', 'selfie', null, 'pending')])).toBeNull();
  });

  it('lists the newest accepted document of each kind and side as kept', () => {
    const kept = keptDocuments([doc('4', 'selfie', null, 'accepted'), doc('3', 'id_card', 'back', 'rejected'), doc('2', 'id_card', 'front', 'accepted'), doc('1', 'selfie', null, 'accepted')]);
    expect(kept.map((d) => d.id)).toEqual(['4', '2']);
  });
});
