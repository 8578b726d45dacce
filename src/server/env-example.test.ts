import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig } from './config.js';
import { PROJECT_ROOT } from './paths.js';

// .env.example and the README's table are how people learn the configuration: a variable added
// to config.ts and not to them would be invisible.
const example = readFileSync(path.join(PROJECT_ROOT, '.env.example'), 'utf8');
const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');

/** KEY=value lines of .env.example, commented out or not. */
const exampleValues = new Map(
  [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]),
);

/** Rows of the table under README's "## Configuration" heading. */
const readmeTable = (() => {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Configuration\n')) ?? '';
  return section.split('\n').filter((l) => l.startsWith('| `')).join('\n');
})();

describe('.env.example and the README list the configuration', () => {
  it('names every variable of the config schema in .env.example', () => {
    expect(CONFIG_VARIABLES.filter((k) => !exampleValues.has(k))).toEqual([]);
  });

  it('names no variable the server does not read', () => {
    expect([...exampleValues.keys()].filter((k) => !(CONFIG_VARIABLES as string[]).includes(k))).toEqual([]);
  });

  it('shows the real default of every variable that has one', () => {
    const defaults = loadConfig({});
    const wrong = CONFIG_VARIABLES.filter((k) => defaults[k] !== undefined && exampleValues.get(k) !== String(defaults[k]))
      .map((k) => `${k}: .env.example says ${exampleValues.get(k)}, config.ts ${String(defaults[k])}`);
    expect(wrong).toEqual([]);
  });

  it('names every variable in the README configuration table', () => {
    expect(readmeTable).not.toBe('');
    expect(CONFIG_VARIABLES.filter((k) => !readmeTable.includes(`\`${k}\``))).toEqual([]);
  });
});
