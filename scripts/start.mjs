// `npm start`: builds only when the sources changed since the last build, then runs the built
// server in this very process, so signals (SIGTERM, Ctrl-C) and the exit code are the server's own.
import './require-node-24.mjs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { staleReason } from './build-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const reason = staleReason(root);
if (reason) {
  console.log(`Building first: ${reason}.`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(`${root}dist/server/main.js`).href);
