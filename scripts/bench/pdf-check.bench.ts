// A crafted PDF against the upload check (src/server/lib/pdf-check.ts): one object followed by
// many streams, the shape that made the check quadratic (0.4 MB took 5.6 s). Prints the time for
// 0.4, 0.8 and 1.6 MB; linear means each doubling about doubles it at most.
import { pdfProblem } from '@server/lib/pdf-check.js';

/** One `obj`, `streams` streams after it, and a cross-reference table where startxref points. */
function manyStreams(streams: number): Buffer {
  const head = `%PDF-1.7\n1 0 obj\n<< >>\n${'stream\nxx\nendstream\n'.repeat(streams)}`;
  return Buffer.from(`${head}xref\n0 1\ntrailer\n<< >>\nstartxref\n${head.length}\n%%EOF\n`, 'latin1');
}

for (const streams of [20_000, 40_000, 80_000]) {
  const file = manyStreams(streams);
  const t0 = performance.now();
  const problem = pdfProblem(file);
  console.log(`${(file.length / 1_048_576).toFixed(1)} MB, ${streams.toLocaleString('en')} streams after one object: ${(performance.now() - t0).toFixed(0)} ms (${problem})`);
}
