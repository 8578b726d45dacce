// `npm run dev`: the server (tsx watch, port 3000) and the web app (Vite, which proxies /api to
// it) together, each restarted on its own changes; Ctrl-C stops both, and either one ending
// ends the other.
import './require-node-24.mjs';
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const children = ['dev:server', 'dev:web'].map((script) => spawn(npm, ['run', '--silent', script], { stdio: 'inherit' }));
let ending = false;
const end = (code) => {
  if (ending) return;
  ending = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) child.on('exit', (code) => end(code ?? 1));
process.on('SIGINT', () => end(0));
process.on('SIGTERM', () => end(0));
