import { describe, expect, it } from 'vitest';
import { PROOF_ACCEPT, proofFileError } from './proof.js';

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('proofFileError', () => {
  it('takes a PNG, JPEG, WebP or PDF of up to 5 MB', () => {
    expect(proofFileError(file('receipt.png', 'image/png'))).toBeNull();
    expect(proofFileError(file('photo.JPG', 'image/jpeg'))).toBeNull();
    expect(proofFileError(file('shot.webp', 'image/webp'))).toBeNull();
    expect(proofFileError(file('statement.pdf', 'application/pdf', 5 * 1024 * 1024))).toBeNull();
  });

  it('asks for a file when none is chosen', () => {
    expect(proofFileError(null)).toBe('transfer.proofMissing');
    expect(proofFileError(undefined)).toBe('transfer.proofMissing');
  });

  it('refuses other types, by the declared type, else by the name', () => {
    expect(proofFileError(file('notes.txt', 'text/plain'))).toBe('transfer.proofType');
    expect(proofFileError(file('scan.gif', 'image/gif'))).toBe('transfer.proofType');
    // A declared type wins over a name that looks right.
    expect(proofFileError(file('receipt.png', 'text/html'))).toBe('transfer.proofType');
    // No declared type: the name decides.
    expect(proofFileError(file('receipt.PDF', ''))).toBeNull();
    expect(proofFileError(file('receipt.heic', ''))).toBe('transfer.proofType');
  });

  it('refuses a file over 5 MB, one byte over included', () => {
    expect(proofFileError(file('big.png', 'image/png', 5 * 1024 * 1024))).toBeNull();
    expect(proofFileError(file('big.png', 'image/png', 5 * 1024 * 1024 + 1))).toBe('transfer.pay.tooLarge');
  });

  it('offers the same types in the file chooser', () => {
    expect(PROOF_ACCEPT).toBe('image/png,image/jpeg,image/webp,application/pdf,.png,.jpg,.jpeg,.webp,.pdf');
  });
});
