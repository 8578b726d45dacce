import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { documentKeyBytes, type Config } from '../config.js';

/**
 * Documents' bytes at rest (docs/decisions/031-document-store.md): AES-256-GCM under DOCUMENT_KEY,
 * a fresh 12-byte nonce per document, bound to the document's id (the associated data) so bytes
 * copied onto another row do not open. Stored as one value: version byte, nonce, tag, ciphertext.
 */
const VERSION = 1;
const NONCE = 12;
const TAG = 16;

export class DocumentBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('a document key is 32 bytes');
  }

  seal(plain: Buffer, boundTo: string): Buffer {
    const nonce = randomBytes(NONCE);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(boundTo));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
  }

  /** The plain bytes, or null when sealed under another key, for another document, or altered. */
  open(sealed: Buffer, boundTo: string): Buffer | null {
    if (sealed.length < 1 + NONCE + TAG || sealed[0] !== VERSION) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(1, 1 + NONCE));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(sealed.subarray(1 + NONCE, 1 + NONCE + TAG));
      return Buffer.concat([decipher.update(sealed.subarray(1 + NONCE + TAG)), decipher.final()]);
    } catch {
      return null;
    }
  }
}

/**
 * DOCUMENT_KEY; in development and tests without it, a key derived from the session secret
 * (itself generated under DATA_DIR when unset). Production refuses to start without it (config.ts).
 */
export function documentKey(config: Config, sessionSecret: string): Buffer {
  if (config.DOCUMENT_KEY) return documentKeyBytes(config.DOCUMENT_KEY)!;
  return Buffer.from(hkdfSync('sha256', sessionSecret, 'mt-document-box', 'document-key', 32));
}
