import { describe, expect, it } from 'vitest';
import enAdmin from './en/admin.json';
import frAdmin from './fr/admin.json';
import frTransfer from './fr/transfer.json';

// The words a French compliance officer reads (docs/rules/screening.md#holds-and-alerts): an alert is
// raised ("déclenchée"), not lifted ("levée"); a confirmation is "proposée" until a second person
// agrees; a summary of an unfinished transfer is not a bank statement ("relevé").

describe('French compliance words', () => {
  it('says when an alert was raised, not lifted', () => {
    expect(frAdmin.compliance.alerts.raised).toBe('Déclenchée le');
  });

  it('never calls a proposal "confirmée": the first step is proposed, the second agreed', () => {
    expect(frAdmin.compliance.alerts.decisions).toEqual({
      false_positive: expect.any(String), proposed: 'confirmation proposée', agreed: 'confirmation approuvée par un second membre de l’équipe',
    });
    expect(Object.keys(enAdmin.compliance.alerts.decisions).sort()).toEqual(Object.keys(frAdmin.compliance.alerts.decisions).sort());
    expect(frAdmin.compliance.alerts.confirm).toBe('Proposer de confirmer la correspondance');
  });

  it('takes a formatted duration, never a count of "heures" written by the catalogue', () => {
    expect(frAdmin.compliance.lists.age).toBe('Importée il y a {{age}} ({{max}} au plus)');
  });

  it('names the document of an unfinished transfer "récapitulatif", never "relevé"', () => {
    expect(JSON.stringify(frTransfer.history) + JSON.stringify(frTransfer.receipt)).not.toMatch(/[Rr]elevé/);
    expect(frTransfer.history.statement).toBe('Récapitulatif');
  });
});
