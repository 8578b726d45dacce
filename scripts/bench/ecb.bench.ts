// Reading the ECB's reference-rate file (src/server/modules/rates/ecb.ts, a streaming XML
// parser): 0.5, 1 and 2 MB (2 MB: the largest file taken) of repeated elements, each read
// 7 times after a warm-up, the fastest printed with its time per MB (the fastest: the least
// disturbed by the machine's other work), so a linear reader shows about the same
// ms/MB at every size (the regular expressions it replaced were quadratic: 2 MB of unclosed
// `<Cube time>` elements took 19 s, the server answering nothing meanwhile). Figures, not a
// budget: it ends with code 1 only when a size's ms/MB is over 3 times its 0.5 MB figure.
import { performance } from 'node:perf_hooks';
import { MAX_ECB_FILE_BYTES, parseEcbFile } from '@server/modules/rates/ecb.js';

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<Cube>`;
const TAIL = '</Cube>\n</gesmes:Envelope>\n';

const SHAPES: { label: string; head: string; unit: string; tail: string }[] = [
  { label: 'unclosed day elements (refused)', head: HEAD, unit: "<Cube time='2026-11-25'>", tail: TAIL },
  { label: 'rates of one day', head: `${HEAD}<Cube time='2026-11-25'><Cube currency='USD' rate='1.0512'/>`, unit: "<Cube currency='JPY' rate='160.53'/>", tail: `</Cube>${TAIL}` },
  { label: 'days of one rate', head: HEAD, unit: "<Cube time='2026-11-24'><Cube currency='USD' rate='1.0478'/></Cube>", tail: TAIL },
  { label: 'start tags never ended (refused)', head: HEAD, unit: '<Cube ', tail: TAIL },
];
const SIZES = [0.5, 1, 2];
const RUNS = 7;

function file(shape: (typeof SHAPES)[number], mb: number): string {
  // 2 MB is the cap itself: a few bytes under it, so the file is read, not refused for its size.
  const bytes = Math.min(mb * 1_048_576, MAX_ECB_FILE_BYTES - 64);
  return shape.head + shape.unit.repeat(Math.floor((bytes - shape.head.length - shape.tail.length) / shape.unit.length)) + shape.tail;
}

function time(xml: string): { ms: number; outcome: string } {
  const runs: number[] = [];
  let outcome = '';
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    try {
      outcome = `${parseEcbFile(xml).length} days`;
    } catch (error) {
      outcome = (error as { code?: string }).code ?? String(error);
    }
    runs.push(performance.now() - t0);
  }
  return { ms: Math.min(...runs), outcome };
}

// Warm-up: every shape read once, so the first figures are not the compiler's.
for (const shape of SHAPES) time(file(shape, 1));
let quadratic = false;
for (const shape of SHAPES) {
  console.log(`${shape.label}:`);
  let first = 0;
  for (const mb of SIZES) {
    const xml = file(shape, mb);
    const size = Buffer.byteLength(xml) / 1_048_576;
    const { ms, outcome } = time(xml);
    const perMb = ms / size;
    first ||= perMb;
    if (perMb > 3 * first) quadratic = true;
    console.log(`  ${size.toFixed(2)} MB: ${ms.toFixed(1)} ms (${perMb.toFixed(1)} ms/MB, ${(perMb / first).toFixed(2)}× the 0.5 MB figure), ${outcome}`);
  }
}
console.log(quadratic ? 'ecb: time per MB grows with the size (not linear)' : 'ecb: linear (time per MB about the same at every size)');
process.exit(quadratic ? 1 : 0);
