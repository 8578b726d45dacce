import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { readZone, unreadable, type ProfileFacts } from '@core/mrz-check.js';
import type { MrzResult } from '@core/mrz.js';

// OCR of a document photo's machine-readable zone: sharp prepares the bottom band (grey, upscaled,
// thresholded), tesseract.js reads it with only the zone's characters allowed. The engine
// (tesseract.js-core's wasm) and the English traineddata (@tesseract.js-data/eng) are both loaded
// from node_modules: nothing is fetched at run time, nothing is cached to disk.

const require = createRequire(import.meta.url);
const ENG_DATA = path.dirname(require.resolve('@tesseract.js-data/eng/package.json'));
const CORE = path.dirname(require.resolve('tesseract.js-core/package.json'));

let shared: Promise<Worker> | null = null;
let queue: Promise<unknown> = Promise.resolve();
let pending = 0;
let idleTimer: NodeJS.Timeout | null = null;
/**
 * The worker is a thread that would keep a stopping process alive: it is ended once no photo has
 * come for this long (photos arrive in bursts: a card's two sides, a review's documents).
 */
const IDLE_MS = 15_000;

/** One worker per process, made on first use and reused (its start costs about a second). */
function worker(): Promise<Worker> {
  shared ??= (async () => {
    const w = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: path.join(ENG_DATA, '4.0.0_best_int'),
      corePath: CORE,
      cachePath: path.join(ENG_DATA, '4.0.0_best_int'),
      cacheMethod: 'none',
      gzip: true,
      // tesseract's own progress lines would otherwise reach stdout.
      logger: () => undefined,
      errorHandler: () => undefined,
    });
    await w.setParameters({
      tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
      tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
      preserve_interword_spaces: '0',
    });
    return w;
  })().catch((err: unknown) => { shared = null; throw err; });
  return shared;
}

/** Stops the shared worker (tests, shutdown). */
export async function stopMrzOcr(): Promise<void> {
  if (idleTimer) { clearTimeout(idleTimer); idleTimer = null; }
  const w = shared;
  shared = null;
  if (w) await (await w).terminate();
}

/** The bottom band of the photo where the zone sits, as a black-on-white PNG tesseract reads well. */
async function bands(image: Buffer): Promise<Buffer[]> {
  const base = sharp(image, { limitInputPixels: 40_000_000 }).rotate().greyscale();
  const { width = 0, height = 0 } = await base.clone().metadata().then(async (m) => {
    const o = m.orientation ?? 1;
    return o >= 5 ? { width: m.height, height: m.width } : { width: m.width, height: m.height };
  });
  if (!width || !height) return [];
  // The zone takes the bottom quarter to third of a card; a passport's data page the bottom fifth.
  const tops = [0.55, 0.7];
  const out: Buffer[] = [];
  for (const t of tops) {
    const top = Math.floor(height * t);
    const scale = Math.min(3, Math.max(1, 2400 / width));
    out.push(await base.clone()
      .extract({ left: 0, top, width, height: height - top })
      .resize({ width: Math.round(width * scale), kernel: 'lanczos3' })
      .normalise()
      .threshold(140)
      .png()
      .toBuffer());
  }
  return out;
}

/**
 * OCRs the photo's bottom bands in turn, handing each band's text to `take` until it answers true
 * (a valid zone found). Photos are read one at a time through the shared worker.
 */
export async function ocrBottomBands(image: Buffer, take: (text: string) => boolean): Promise<void> {
  pending++;
  if (idleTimer) { clearTimeout(idleTimer); idleTimer = null; }
  const run = queue.then(async () => {
    const w = await worker();
    for (const band of await bands(image)) if (take((await w.recognize(band)).data.text)) return;
  });
  queue = run.catch(() => undefined).finally(() => {
    if (--pending > 0) return;
    idleTimer = setTimeout(() => { idleTimer = null; if (pending === 0) void stopMrzOcr().catch(() => undefined); }, IDLE_MS);
    idleTimer.unref();
  });
  return run;
}

/**
 * A photo's zone: the first band whose reading holds every check digit after cleaning, compared
 * with the profile; `unreadable` when none does (core/mrz-check.ts readZone).
 */
export async function readMrzPhoto(image: Buffer, profile: ProfileFacts, now: Date): Promise<MrzResult> {
  let found: MrzResult | null = null;
  await ocrBottomBands(image, (text) => (found = readZone(text, profile, now)) !== null);
  return found ?? unreadable(now);
}
