import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSenderName, readToken, writeSenderName, writeToken } from './token-store';

// The session token and the sender's name the dashboard's HTML greets with: the name never
// outlives the session it was read in.

const store = new Map<string, string>();

beforeEach(() => {
  store.clear();
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('token store', () => {
  it('keeps the name while the same session goes on', () => {
    writeToken('a.token');
    writeSenderName('Awa Ndong');
    writeToken('a.token');
    expect([readToken(), readSenderName()]).toEqual(['a.token', 'Awa Ndong']);
  });

  it('forgets the name when the session ends or another one begins', () => {
    writeToken('a.token');
    writeSenderName('Awa Ndong');
    writeToken('b.token');
    expect([readToken(), readSenderName()]).toEqual(['b.token', null]);
    writeSenderName('Jean Obame');
    writeToken(null);
    expect([readToken(), readSenderName()]).toEqual([null, null]);
  });

  it('reads nothing where storage is refused (private mode)', () => {
    vi.stubGlobal('window', { localStorage: { getItem: () => { throw new Error('denied'); } } });
    expect([readToken(), readSenderName()]).toEqual([null, null]);
    expect(() => writeSenderName('Awa')).not.toThrow();
  });
});
