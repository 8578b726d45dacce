// Reading the sanctions lists' files (docs/rules/screening.md#list-files): a generated
// 20,000-entry OFAC list (sdn.csv, alt.csv, add.csv) and a 50 MB sdn.csv, read from disk as
// the import streams them. Budget: ≤ 10 s with the process's memory (RSS) under 300 MB.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { readList, type ListFiles } from '@server/modules/screening/lists/index.js';
import { encode, generatedOfac, generatedSdnRow, sdnLine } from '../../tests/support/sanctions-files.js';

const BUDGET_SECONDS = 10;
const BUDGET_RSS_MB = 300;
const mb = (bytes: number) => bytes / 1_048_576;

const dir = mkdtempSync(path.join(os.tmpdir(), 'list-import-'));
let over = false;

async function measure(label: string, input: () => ListFiles, bytes: number) {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t0 = performance.now();
  const { entries, counts } = readList(input());
  // Entries are handed on and let go, as the import writes them in batches.
  for await (const _ of entries) if (counts.entries % 1000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sample);
  peak = Math.max(peak, process.memoryUsage().rss);
  const ok = seconds <= BUDGET_SECONDS && mb(peak) < BUDGET_RSS_MB;
  if (!ok) over = true;
  console.log(`${label}: ${mb(bytes).toFixed(1)} MB, ${counts.entries} entries, ${counts.names} names in ${seconds.toFixed(2)} s, peak RSS ${mb(peak).toFixed(0)} MB (${mb(base).toFixed(0)} MB before) ${ok ? '(within budget)' : '(OVER BUDGET)'}`);
}

try {
  // 20,000 entries, each with two aliases and an address.
  for (const [name, text] of Object.entries(generatedOfac(20_000))) writeFileSync(path.join(dir, `${name}.csv`), encode(text, 'windows-1252'));
  const size = ['sdn', 'alt', 'add'].reduce((s, n) => s + statSync(path.join(dir, `${n}.csv`)).size, 0);
  const file = (n: string) => createReadStream(path.join(dir, `${n}.csv`));

  // 50 MB of sdn.csv, written in pieces; an accented first entry makes it Windows-1252.
  const big = path.join(dir, 'big-sdn.csv');
  const out = createWriteStream(big);
  out.write(encode(sdnLine({ ent_num: 1, name: 'MÜLLER, José', type: 'individual', programs: ['SDGT'] }) + '\r\n', 'windows-1252'));
  let written = 0;
  for (let i = 0; written < 50 * 1_048_576; i++) {
    const piece = Array.from({ length: 1000 }, (_, k) => sdnLine(generatedSdnRow(i * 1000 + k)) + '\r\n').join('');
    written += piece.length;
    if (!out.write(piece)) await once(out, 'drain');
  }
  out.end('\x1a');
  await once(out, 'finish');

  await measure('OFAC list of 20,000 entries (sdn.csv, alt.csv, add.csv)', () => ({ source: 'ofac_sdn', files: { sdn: file('sdn'), alt: file('alt'), add: file('add') } }), size);
  await measure('sdn.csv of 50 MB', () => ({ source: 'ofac_sdn', files: { sdn: createReadStream(big) } }), statSync(big).size);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`budget: ≤ ${BUDGET_SECONDS} s and RSS < ${BUDGET_RSS_MB} MB each`);
process.exit(over ? 1 : 0);
