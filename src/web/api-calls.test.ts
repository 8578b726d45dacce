import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Screens and the app's shell call the API through named functions (src/web/lib/'s API modules,
// a feature's *-api.ts), never with an /api/… path of their own. Links a browser follows (the
// OAuth buttons' /api/auth/google) are not calls.

const WEB = fileURLToPath(new URL('.', import.meta.url));
const CALL = /\b(?:api|apiData|fetch|fetchBlob)\s*(?:<[^>]*>)?\(\s*['"`]\/api\//;

function files(dir: string, wanted: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path, wanted);
    return wanted(entry.name) && !entry.name.includes('.test.') ? [path] : [];
  });
}

describe('the web app\'s API calls', () => {
  it('are named functions: no component, and no file of the app\'s shell, calls an /api/ path itself', () => {
    const checked = [...files(WEB, (name) => name.endsWith('.tsx')), ...files(join(WEB, 'app'), (name) => name.endsWith('.ts'))];
    expect(checked.length).toBeGreaterThan(50);
    const inline = checked.filter((file) => CALL.test(readFileSync(file, 'utf8'))).map((file) => relative(WEB, file));
    expect(inline).toEqual([]);
  });

  it('finds a call written inline', () => {
    expect(CALL.test("await api<MyProfileResponse>('/api/profiles/me', { token })")).toBe(true);
    expect(CALL.test('fetch(`/api/transfer-requests/${id}`)')).toBe(true);
    expect(CALL.test('<a href="/api/auth/google">')).toBe(false);
  });
});
