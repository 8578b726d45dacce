import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, mkdir, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { AppError } from '@core/errors.js';
import type { AppContext } from '@server/context.js';
import { importBankStatement, MAX_STATEMENT_MB } from './statements.js';

// Statements fetched from a configured folder (docs/rules/bank-rail.md#statements-from-a-folder):
// with BANK_STATEMENTS_DIR set, a scheduled job imports each camt file dropped there, by the
// system, then moves it to `imported/` under its content's hash (`refused/` when it is not a
// camt.053 or camt.054, or is larger than an upload may be). A file whose content was imported
// before is moved without a second import; one imported but not yet moved (a crash between the
// two) is read again, which changes nothing (lines are known by the bank's reference).

type Deps = Pick<AppContext, 'config' | 'db'> & { log: Logger };

const exists = (file: string) => access(file).then(() => true, () => false);

/** The file's SHA-256, read piece by piece: a 60 MB statement is never whole in memory. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(file)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

/** The job: each XML file of the folder, oldest name first. Answers how many were imported. */
export async function runStatementsDirImport(deps: Deps): Promise<number> {
  const dir = deps.config.BANK_STATEMENTS_DIR;
  if (!dir) return 0;
  const imported = path.join(dir, 'imported');
  const refused = path.join(dir, 'refused');
  await mkdir(imported, { recursive: true });
  await mkdir(refused, { recursive: true });
  const names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.xml')).map((e) => e.name).sort();
  let count = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    // Bounded before anything reads it, its hash included.
    if ((await stat(file)).size > MAX_STATEMENT_MB * 1_000_000) {
      deps.log.warn({ file: name, max_mb: MAX_STATEMENT_MB }, 'larger than a statement may be: moved to refused/');
      await rename(file, path.join(refused, `too-large-${Date.now()}-${name}`));
      continue;
    }
    const hash = await sha256Of(file);
    const done = path.join(imported, `${hash}.xml`);
    if (await exists(done)) {
      await rename(file, path.join(imported, `${hash}.again-${Date.now()}.xml`));
      continue;
    }
    try {
      const result = await importBankStatement(deps, null, createReadStream(file), name);
      deps.log.info({ file: name, statement: result.msg_id, settled: result.settled, returned: result.returned, payments: result.payments, unmatched: result.unmatched }, 'bank statement imported from the folder');
      await rename(file, done);
      count++;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'bank_statement_invalid')) throw error;
      deps.log.warn({ file: name }, 'not a camt.053 or camt.054: moved to refused/');
      await rename(file, path.join(refused, `${hash}.xml`));
    }
  }
  return count;
}
