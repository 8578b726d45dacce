// Bundles the server's TypeScript into dist/server/app; packages stay in node_modules. The path
// aliases (@core/*, @server/*) come from tsconfig.json's paths. Each entry point,
// dist/server/<name>.js, checks the runtime first and only then loads its bundle: a bundle's
// package imports load before any of its own code runs, so a check inside it could come too late.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const entries = { main: 'src/server/main.ts', migrate: 'src/server/migrate-main.ts',
  backup: 'src/server/backup-main.ts', restore: 'src/server/restore-main.ts', worker: 'src/server/worker-main.ts',
  admin: 'src/server/admin-cli-main.ts' };

rmSync('dist/server', { recursive: true, force: true });
await build({
  entryPoints: entries,
  outdir: 'dist/server/app',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
});

mkdirSync('dist/server', { recursive: true });
copyFileSync('scripts/require-node-24.mjs', 'dist/server/require-node-24.js');
for (const name of Object.keys(entries)) {
  writeFileSync(`dist/server/${name}.js`, `import './require-node-24.js';\nawait import('./app/${name}.js');\n`);
}
