// Bundles the server's TypeScript into dist/server; packages stay in node_modules. The path
// aliases (@core/*, @server/*) come from tsconfig.json's paths.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/server/main.ts', migrate: 'src/server/migrate-main.ts',
    backup: 'src/server/backup-main.ts', restore: 'src/server/restore-main.ts', worker: 'src/server/worker-main.ts',
    admin: 'src/server/admin-cli-main.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
});
