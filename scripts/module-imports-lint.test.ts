import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The server's modules stand alone: the lint lets a module import another only through its
// service.ts (eslint.config.js), and the modules import each other without a cycle.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULES = join(ROOT, 'src/server/modules');
const eslint = new ESLint({ cwd: ROOT });

/** The module-boundary refusals ESLint reports for `code` as a file of src/server/modules/<module>/. */
async function refusals(code: string, module = 'x'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${MODULES}/${module}/service.ts` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const importing = (path: string) => `import { a } from '${path}';\nexport const b = a;\n`;

describe('module boundaries (lint)', () => {
  it('refuses any file of another module but its service, by relative path or alias', async () => {
    for (const path of ['../fees/repo.js', '../fees/routes.js', '../holds/service-helpers.js', '../screening/screen-people.js',
      '../screening/lists/index.js', '@server/modules/transfers/repo.js', '@server/modules/auth/tokens.js']) {
      expect(await refusals(importing(path)), path).toEqual([expect.stringContaining('only through its service.ts')]);
    }
  });

  it('lets a module use another module\'s service, its own files and the shared SQL', async () => {
    for (const path of ['../fees/service.js', '@server/modules/fees/service.js', './repo.js', './lists/index.js',
      '@server/db/shared-sql/quote-claims.js', '../module.js']) {
      expect(await refusals(importing(path)), path).toEqual([]);
    }
  });

  it('makes no exception: profiles and privacy reach auth only through its service too', async () => {
    for (const module of ['profiles', 'privacy']) {
      expect(await refusals(importing('../auth/codes.js'), module), module).toHaveLength(1);
      expect(await refusals(importing('../auth/service.js'), module), module).toEqual([]);
    }
  });
}, 60_000);

/** Each module's set of the modules it imports (type imports included), read from the source. */
function moduleImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const moduleOf = (file: string) => {
    const [first, ...rest] = relative(MODULES, file).split('/');
    return rest.length > 0 && first !== '..' ? first! : null;
  };
  const scan = (file: string) => {
    const from = moduleOf(file);
    if (!from) return;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      const target = spec!.startsWith('@server/') ? join(ROOT, 'src/server', spec!.slice('@server/'.length))
        : spec!.startsWith('.') ? resolve(dirname(file), spec!) : null;
      const to = target && moduleOf(target);
      if (to && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.includes('.test.')) scan(path);
    }
  };
  walk(MODULES);
  return graph;
}

/** The groups of modules that import each other in a circle (strongly connected, Tarjan), each sorted. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) visit(to);
      if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, low.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do { member = stack.pop()!; group.push(member); } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.sort();
}

describe('module imports', () => {
  it('finds a cycle when there is one, and none in a chain', () => {
    const graph = (edges: [string, string][]) => edges.reduce((g, [a, b]) => g.set(a, (g.get(a) ?? new Set()).add(b)), new Map<string, Set<string>>());
    expect(cycles(graph([['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']]))).toEqual([['a', 'b', 'c']]);
    expect(cycles(graph([['a', 'b'], ['b', 'c'], ['a', 'c']]))).toEqual([]);
  });

  it('form no cycle', () => {
    const graph = moduleImports();
    expect(graph.get('transfers')?.has('holds')).toBe(true);
    expect(graph.get('profiles')?.has('auth')).toBe(true);
    expect(cycles(graph)).toEqual([]);
  });
});
