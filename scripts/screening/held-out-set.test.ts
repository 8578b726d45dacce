import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The held-out set measures the matcher only if it was made without it
// (docs/rules/screening.md#the-labelled-sets): its generator may read the lists' data, never import their matcher.
describe('the held-out set\'s generator', () => {
  it('imports node\'s own modules and the seeded generator, nothing of the matcher', () => {
    const source = readFileSync(new URL('./generate-held-out-set.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((from) => from!.startsWith('node:') || from === './seeded-random.js')).toBe(true);
  });
});
