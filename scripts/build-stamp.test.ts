import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { beginBuild, finishBuild, staleReason } from './build-stamp.mjs';

const INPUTS = ['src', 'index.html'];
let root: string;

/** What a successful `npm run build` leaves: the server bundle and the stamp. */
function build() {
  beginBuild(root, INPUTS);
  mkdirSync(path.join(root, 'dist/server'), { recursive: true });
  writeFileSync(path.join(root, 'dist/server/main.js'), '');
  finishBuild(root);
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'build-stamp-'));
  mkdirSync(path.join(root, 'src/web'), { recursive: true });
  writeFileSync(path.join(root, 'src/web/app.tsx'), 'export const a = 1;\n');
  writeFileSync(path.join(root, 'index.html'), '<!doctype html>\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm start builds only when the sources changed', () => {
  it('builds when nothing was built yet', () => {
    expect(staleReason(root, INPUTS)).toBe('no complete build in dist/');
  });

  it('does not build again when nothing changed, even if files were rewritten as they were', () => {
    build();
    expect(staleReason(root, INPUTS)).toBeNull();
    writeFileSync(path.join(root, 'src/web/app.tsx'), 'export const a = 1;\n');
    expect(staleReason(root, INPUTS)).toBeNull();
  });

  it('builds again when a source file changes, is added or is removed', () => {
    build();
    writeFileSync(path.join(root, 'src/web/app.tsx'), 'export const a = 2;\n');
    expect(staleReason(root, INPUTS)).toBe('the sources changed since the last build');
    build();
    writeFileSync(path.join(root, 'src/web/new.ts'), '');
    expect(staleReason(root, INPUTS)).not.toBeNull();
    build();
    rmSync(path.join(root, 'src/web/new.ts'));
    expect(staleReason(root, INPUTS)).not.toBeNull();
    build();
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>x</title>\n');
    expect(staleReason(root, INPUTS)).not.toBeNull();
  });

  it('builds again after a build that failed half-way', () => {
    build();
    beginBuild(root, INPUTS); // the build starts, then fails before finishing
    expect(staleReason(root, INPUTS)).toBe('no complete build in dist/');
  });
});
