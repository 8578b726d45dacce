import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { mergeClasses } from './utils';

// The hand-made class merger stands in for tailwind-merge (decision 005: its weight on every
// page). This holds it to the library's answers on the classes our own components write.

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(file) : /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Every utility written in a class string under src/web (variants included). */
function utilitiesInUse(): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles('src/web')) {
    for (const [, list = ''] of readFileSync(file, 'utf8').matchAll(/(?:className=|cn\(|cva\()\s*['"`]([^'"`$]+)['"`]/g)) {
      for (const token of list.split(/\s+/)) if (/^[a-z!-][\w:[\]/.!()=&>%#,-]*$/.test(token) && /-|^(flex|grid|hidden|block|inline|relative|absolute|fixed|sticky|truncate|underline|uppercase|sr-only|border|rounded|shadow)$/.test(token)) found.add(token);
    }
  }
  return [...found].sort();
}

/**
 * Where the two knowingly differ: tailwind-merge keeps repeated classes (the merger drops the
 * repeat, which changes nothing on screen), reads Tailwind 3's `bg-gradient-*` names, counts
 * `break-words` and `break-all` as one group (they are two CSS properties), and does not know our
 * theme's own animation (`animate-toast-in`) without being configured for it.
 */
const known = (list: string) => /\bbg-gradient-|\bbreak-(words|all)\b|\banimate-toast-in\b/.test(list);
const unique = (list: string) => [...new Set(list.split(' ').reverse())].reverse().join(' ');

describe('mergeClasses against tailwind-merge', () => {
  it('merges 20,000 random lists of the utilities in use as tailwind-merge does', () => {
    const pool = utilitiesInUse();
    expect(pool.length).toBeGreaterThan(300);
    // mulberry32: a small seeded generator, so a failure names lists that come back on every run.
    let seed = 42;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
    };
    const differences: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      const list = Array.from({ length: 2 + Math.floor(random() * 5) }, () => pool[Math.floor(random() * pool.length)]).join(' ');
      if (known(list)) continue;
      const ours = mergeClasses(list);
      const library = unique(twMerge(list));
      if (ours !== library) differences.push(`${list} → ${ours} (tailwind-merge: ${library})`);
    }
    expect(differences.slice(0, 30)).toEqual([]);
  });
});
