// What a proof of payment may be (docs/rules/money-states.md): the browser checks the chosen
// file's declared type and size before sending it; the server checks the bytes themselves.

/** The file types a proof may be, as MIME types. */
export const PROOF_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'] as const;

/** File name endings of those types, for a browser that declares no type. */
const PROOF_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.pdf'] as const;

/** What a file chooser is told to offer. */
export const PROOF_ACCEPT = [...PROOF_MIME_TYPES, ...PROOF_EXTENSIONS].join(',');

/** A proof is at most 5 MB. */
export const MAX_PROOF_BYTES = 5 * 1024 * 1024;

/**
 * Why a chosen file cannot be sent as a proof, as a message key, or null when it can: none
 * chosen, not a PNG, JPEG, WebP or PDF (by its declared type, else its name), or over 5 MB.
 */
export function proofFileError(file: { name: string; type: string; size: number } | null | undefined): string | null {
  if (!file) return 'transfer.proofMissing';
  const type = file.type.toLowerCase();
  const name = file.name.toLowerCase();
  const known = type ? (PROOF_MIME_TYPES as readonly string[]).includes(type) : PROOF_EXTENSIONS.some((ext) => name.endsWith(ext));
  if (!known) return 'transfer.proofType';
  if (file.size > MAX_PROOF_BYTES) return 'transfer.pay.tooLarge';
  return null;
}
