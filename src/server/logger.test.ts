import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger.js';

describe('redactUrl', () => {
  it('hides secret-looking query values, whatever their case or encoding, and keeps the rest', () => {
    expect(redactUrl('/reset-password?token=abc&lng=fr')).toBe('/reset-password?token=[redacted]&lng=fr');
    expect(redactUrl('/?Ticket=abc')).toBe('/?Ticket=[redacted]');
    expect(redactUrl('/cb?%74oken=abc&state=s&code=c')).toBe('/cb?%74oken=[redacted]&state=[redacted]&code=[redacted]');
    expect(redactUrl('/x?api_key=k&client_secret=s&password=p&otp=1')).toBe('/x?api_key=[redacted]&client_secret=[redacted]&password=[redacted]&otp=[redacted]');
    expect(redactUrl('/api/transfers?limit=20&cursor=abc')).toBe('/api/transfers?limit=20&cursor=abc');
    expect(redactUrl('/plain')).toBe('/plain');
  });

  it('judges a malformed name as written', () => {
    expect(redactUrl('/x?%E0%A4%Atoken=abc&%E0=1')).toBe('/x?%E0%A4%Atoken=[redacted]&%E0=1');
  });
});
