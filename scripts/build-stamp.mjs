// What `npm start` needs to know to skip the build: a hash of everything the build reads,
// written into dist/ when a build succeeds and compared on start. See
// docs/decisions/015-fast-start-and-status-counts.md.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';

/** The build's inputs, relative to the project root: folders are read whole. */
export const BUILD_INPUTS = [
  'src', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json',
  'scripts/build-server.mjs', 'scripts/prerender.mjs', 'scripts/precompress.mjs', 'scripts/path-aliases.ts',
  'scripts/build-stamp.mjs',
];

const STAMP = 'dist/.build-stamp';
const PENDING = 'dist/.build-stamp.pending';

function filesUnder(root, rel, out) {
  const full = path.join(root, rel);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) filesUnder(root, path.posix.join(rel, name), out);
  } else {
    out.push(rel);
  }
}

/** A hash of the inputs' names and contents (contents, not mtimes: a checkout or copy can keep old mtimes). */
export function sourceHash(root, inputs = BUILD_INPUTS) {
  const files = [];
  for (const input of inputs) filesUnder(root, input, files);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file).update('\0').update(readFileSync(path.join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

/** Why a build is needed, or null when dist/ was built from the sources as they are. */
export function staleReason(root, inputs = BUILD_INPUTS) {
  const stampFile = path.join(root, STAMP);
  if (!existsSync(path.join(root, 'dist/server/main.js')) || !existsSync(stampFile)) return 'no complete build in dist/';
  if (readFileSync(stampFile, 'utf8').trim() !== sourceHash(root, inputs)) return 'the sources changed since the last build';
  return null;
}

/**
 * Before a build: drop the stamp (a build that fails half-way leaves none) and note the hash of
 * the sources the build is about to read (an edit made during the build makes the next start build again).
 */
export function beginBuild(root, inputs = BUILD_INPUTS) {
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  rmSync(path.join(root, STAMP), { force: true });
  writeFileSync(path.join(root, PENDING), `${sourceHash(root, inputs)}\n`);
}

/** After a successful build: its stamp. */
export function finishBuild(root) {
  renameSync(path.join(root, PENDING), path.join(root, STAMP));
}

// `node scripts/build-stamp.mjs begin|finish`, run by `npm run build`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const step = process.argv[2];
  if (step === 'begin') beginBuild(root);
  else if (step === 'finish') finishBuild(root);
  else {
    console.error('usage: node scripts/build-stamp.mjs begin|finish');
    process.exit(2);
  }
}
