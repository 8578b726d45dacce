// docs/rules/screening.md#speed, #bounds
import { describe, expect, it } from 'vitest';
import { HashedKeys } from './hashed-keys.js';
import { buildIndex, screen } from './index.js';
import { indexSteps } from './search-index.js';

describe('the deletion keys', () => {
  it('give back every id added under a key, once for a key added twice in a row, and nothing for a key never added', () => {
    const keys = new HashedKeys(5);
    keys.add('w:kovlenko', 1);
    keys.add('w:kovlenko', 1);
    keys.add('w:kovlenko', 2);
    keys.add('k:kflnk', 3);
    const found = (key: string) => { const ids: number[] = []; keys.forEach(key, (id) => ids.push(id)); return ids.sort(); };
    expect(found('w:kovlenko')).toEqual([1, 2]);
    expect(found('k:kflnk')).toEqual([3]);
    expect(found('w:nothing')).toEqual([]);
  });
});

describe('the index of a poisoned list', () => {
  const entries = [
    { source: 'un' as const, list_id: 'QDi.901', names: [`${'A'.repeat(16_500)} KOROLENKO`], kind: 'person' as const },
    { source: 'un' as const, list_id: 'QDi.902', names: ['Hamid Abdullah al-Zubaidi'], kind: 'person' as const },
  ];
  it('holds a giant word at 40 letters and still finds a listed name one letter off', () => {
    const index = buildIndex(entries);
    expect(Math.max(...index.words.map((w) => w.text.length))).toBe(40);
    expect(screen(index, { name: 'Hamid Abdulah Zubaidi' })[0]?.entry.list_id).toBe('QDi.902');
  });
  it('is built in steps a server can answer between, the same index as built at once', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => ({ source: 'eu' as const, list_id: String(i), names: [`Person${i} Family${i % 97}`], kind: 'person' as const }));
    const steps = indexSteps(many);
    let pauses = 0;
    let step = steps.next();
    while (!step.done) { pauses++; step = steps.next(); }
    expect(pauses).toBeGreaterThan(2);
    expect(step.value.names.length).toBe(buildIndex(many).names.length);
  });
});
