import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults for a fresh machine', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 3000, HOST: '0.0.0.0', DATA_DIR: './data', publicUrl: 'http://localhost:3000' });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.PAYPAL_API_BASE).toBe('https://api-m.sandbox.paypal.com');
    expect(c.GOOGLE_ISSUER).toBe('https://accounts.google.com');
  });

  it('names every bad variable in one message', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', MIGRATION_DATABASE_URL: 'owner', SESSION_SECRET: 'short', SMTP_URL: 'http://mail' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'MIGRATION_DATABASE_URL', 'SESSION_SECRET', 'SMTP_URL']) expect(message).toContain(name);
  });

  it('takes an SMTP URL only if it parses, as the mailer will read it', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://mailer:p%23ss@mail.example.com:465' }).SMTP_URL).toBe('smtps://mailer:p%23ss@mail.example.com:465');
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com:port' })).toThrow(/SMTP_URL.*valid URL/);
  });

  it('reads DOCUMENT_KEY as 32 bytes of hex or base64, and requires it in production', () => {
    const bytes = Buffer.alloc(32, 7);
    expect(loadConfig({ DOCUMENT_KEY: bytes.toString('hex') }).DOCUMENT_KEY).toBe(bytes.toString('hex'));
    expect(loadConfig({ DOCUMENT_KEY: bytes.toString('base64') }).DOCUMENT_KEY).toBe(bytes.toString('base64'));
    expect(() => loadConfig({ DOCUMENT_KEY: Buffer.alloc(16).toString('hex') })).toThrow(/DOCUMENT_KEY: must be 32 bytes/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/DOCUMENT_KEY: required in production/);
    expect(loadConfig({ NODE_ENV: 'production', DOCUMENT_KEY: bytes.toString('base64') }).isProduction).toBe(true);
  });

  it('trusts no proxy unless told, then a hop count or addresses', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY).toBe('10.0.0.0/8');
  });

  it('treats empty values as unset and trims the public URL', () => {
    const c = loadConfig({ DATABASE_URL: '', PUBLIC_URL: 'https://send.example.com/' });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.publicUrl).toBe('https://send.example.com');
  });
});
