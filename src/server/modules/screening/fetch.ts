import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ListSourceId } from '@core/api/screening.js';
import type { Config } from '@server/config.js';
import type { Db } from '@server/db/client.js';
import { importList, type UploadedListFile } from './lists-service.js';
import { MAX_LIST_FILE_MB } from './upload.js';

// The scheduled fetch of the sanctions lists from their configured URLs (docs/rules/screening.md#lists-in-the-product):
// each file streamed to a temporary file, hashed on the way, then imported exactly as an admin's
// upload is (same version and sha256 handling), by the system. Unset URLs: nothing fetched.

/** How long one file may take to arrive, headers to last byte. */
export const FETCH_TIMEOUT_MS = 10 * 60_000;

type ScreeningUrls = Pick<Config, 'SCREENING_OFAC_SDN_URL' | 'SCREENING_OFAC_ALT_URL' | 'SCREENING_OFAC_ADD_URL' | 'SCREENING_EU_URL' | 'SCREENING_UN_URL' | 'SCREENING_UK_URL'>;

interface ConfiguredList { source: ListSourceId; files: { name: string; url: string }[] }

/** The lists with a configured URL, each with its files under their official names (OFAC's alt and add only with its sdn). */
export function configuredLists(config: ScreeningUrls): ConfiguredList[] {
  const lists: ConfiguredList[] = [];
  if (config.SCREENING_OFAC_SDN_URL) {
    lists.push({
      source: 'ofac_sdn',
      files: [
        { name: 'sdn.csv', url: config.SCREENING_OFAC_SDN_URL },
        ...(config.SCREENING_OFAC_ALT_URL ? [{ name: 'alt.csv', url: config.SCREENING_OFAC_ALT_URL }] : []),
        ...(config.SCREENING_OFAC_ADD_URL ? [{ name: 'add.csv', url: config.SCREENING_OFAC_ADD_URL }] : []),
      ],
    });
  }
  if (config.SCREENING_EU_URL) lists.push({ source: 'eu', files: [{ name: 'eu.csv', url: config.SCREENING_EU_URL }] });
  if (config.SCREENING_UN_URL) lists.push({ source: 'un', files: [{ name: 'un.xml', url: config.SCREENING_UN_URL }] });
  if (config.SCREENING_UK_URL) lists.push({ source: 'uk', files: [{ name: 'uk.csv', url: config.SCREENING_UK_URL }] });
  return lists;
}

/** One file written to `path` as it arrives, hashed, refused over MAX_LIST_FILE_MB. Errors name the file, never the URL (it may hold a key). */
async function download(name: string, url: string, path: string, signal: AbortSignal | undefined): Promise<string> {
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const res = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, redirect: 'follow' })
    .catch((err: unknown) => { throw new Error(`${name}: ${err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'could not be fetched'}`); });
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`${name}: HTTP ${res.status}`);
  }
  const max = MAX_LIST_FILE_MB * 1_000_000;
  const length = Number(res.headers.get('content-length'));
  if (length > max) {
    await res.body.cancel().catch(() => undefined);
    throw new Error(`${name}: larger than ${MAX_LIST_FILE_MB} MB`);
  }
  const hash = createHash('sha256');
  let size = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > max) { done(new Error(`${name}: larger than ${MAX_LIST_FILE_MB} MB`)); return; }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), hashing, createWriteStream(path));
  } catch (err) {
    throw new Error(err instanceof Error && err.message.startsWith(`${name}: `) ? err.message : `${name}: the download broke off`, { cause: err });
  }
  return hash.digest('hex');
}

interface FetchDeps {
  db: Db;
  config: Config;
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
}

/**
 * The job (src/server/worker.ts): every configured list fetched and imported; a new version queues the
 * re-screening as an upload does. A list that fails (network, HTTP status, size, format) leaves
 * its current version and is logged; the job then fails and graphile-worker retries it.
 */
export async function runScreeningFetch(deps: FetchDeps, signal?: AbortSignal): Promise<void> {
  const failed: string[] = [];
  for (const list of configuredLists(deps.config)) {
    const dir = await mkdtemp(join(tmpdir(), 'screening-fetch-'));
    try {
      const files: UploadedListFile[] = [];
      for (const [i, f] of list.files.entries()) {
        const path = join(dir, String(i));
        files.push({ name: f.name, sha256: await download(f.name, f.url, path, signal), open: () => createReadStream(path) });
      }
      const imported = await importList(deps, null, list.source, files);
      deps.log.info({ source: list.source, version_id: imported.id, entries: imported.entries, unchanged: imported.unchanged }, 'sanctions list fetched');
    } catch (err) {
      failed.push(list.source);
      deps.log.warn({ source: list.source, reason: err instanceof Error ? err.message : 'failed' }, 'sanctions list fetch failed; its current version stays');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (failed.length) throw new Error(`sanctions lists not fetched: ${failed.join(', ')}`);
}
