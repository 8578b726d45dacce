// Writes .br and .gz beside each text asset of the built web app and prerendered pages; the server
// sends them to browsers that accept them (no compression work per request).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOTS = ['dist/web', 'dist/pages'];
const TEXT = /\.(js|mjs|css|html|json|svg|txt|xml|webmanifest)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (TEXT.test(name)) yield full;
  }
}

let count = 0;
for (const file of ROOTS.flatMap((root) => [...files(root)])) {
  const data = readFileSync(file);
  if (data.length < 512) continue;
  writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  count++;
}
console.log(`precompressed ${count} files in ${ROOTS.join(' and ')}`);
