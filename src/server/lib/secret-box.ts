import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the server must read back (TOTP secrets) are kept sealed: AES-256-GCM with a key derived
 * (HKDF-SHA256) from the session secret, a fresh 12-byte nonce each time, and bound to the row they
 * belong to (the associated data), so a sealed value copied to another account does not open.
 * Changing the session secret makes every sealed value unreadable (docs/decisions/019-two-step-sign-in.md).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(sessionSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', sessionSecret, 'mt-secret-box', purpose, 32));
  }

  /** "v1.<nonce>.<tag>.<ciphertext>", base64url. */
  seal(plain: string, boundTo: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(boundTo));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', nonce, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** The plain value, or null when the box was sealed with another key, for another row, or altered. */
  open(sealed: string, boundTo: string): string | null {
    const [version, nonce, tag, body] = sealed.split('.');
    if (version !== 'v1' || !nonce || !tag || body === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
