import { describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config.js';
import { mailStartupLine } from './outbox-access.js';

describe('the start-up line about e-mail', () => {
  it('says the development outbox is on and readable only from this machine', () => {
    const line = mailStartupLine(loadConfig({ PORT: '3000' }));
    expect(line).toContain('development outbox (http://localhost:3000/dev/outbox)');
    expect(line).toContain('readable only from a browser on this machine, never through a proxy');
  });

  it('says it is off in production and with SMTP_URL', () => {
    expect(mailStartupLine(loadConfig({ NODE_ENV: 'production', DOCUMENT_KEY: 'a'.repeat(64) }))).toBe(
      'No SMTP_URL with NODE_ENV=production: e-mails cannot be delivered, and the development outbox is off. Set SMTP_URL.',
    );
    expect(mailStartupLine(loadConfig({ SMTP_URL: 'smtp://mail.example.test' }))).toBe('E-mails are sent through SMTP_URL; the development outbox is off.');
  });
});
