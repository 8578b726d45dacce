import { describe, expect, it } from 'vitest';
import { ProofFormSchema } from './proof-card';

const file = (name: string, type: string, size = 2048) => new File([new Uint8Array(size)], name, { type });
const errors = (value: File | null) => {
  const result = ProofFormSchema.safeParse({ file: value });
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the proof upload form', () => {
  it('sends a PNG, JPEG, WebP or PDF receipt as chosen', () => {
    const receipt = file('receipt.png', 'image/png');
    expect(ProofFormSchema.parse({ file: receipt })).toEqual({ file: receipt });
    for (const [name, type] of [['photo.jpg', 'image/jpeg'], ['shot.webp', 'image/webp'], ['statement.pdf', 'application/pdf']]) {
      expect(errors(file(name!, type!))).toEqual([]);
    }
  });

  it('says under the file field what is wrong: none chosen, another type, over 5 MB', () => {
    expect(errors(null)).toEqual(['file: transfer.proofMissing']);
    expect(errors(file('notes.txt', 'text/plain'))).toEqual(['file: transfer.proofType']);
    expect(errors(file('huge.png', 'image/png', 5 * 1024 * 1024 + 1))).toEqual(['file: transfer.pay.tooLarge']);
  });
});
