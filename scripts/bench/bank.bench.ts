// The bank rail (docs/rules/bank-rail.md; figures in docs/benchmarks.md#bank-rail), its budgets:
// - a 10,000-transfer pain.001.001.09 payment file written (the sepa package, exact control sums)
//   in under 2 s;
// - a 50,000-line camt.053 read streaming and matched (one transaction, each line claimed by its
//   bank reference and matched) in under 10 s with the process's memory under 300 MB.
// On a temporary embedded PostgreSQL, migrated and seeded. Figures are printed; a budget missed
// is said, and the run exits 1.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@server/config.js';
import { connect, startEmbeddedPostgres } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { seedReferenceData } from '@server/db/seed.js';
import { importBankStatement } from '@server/modules/bank/service.js';
import { writePain001 } from '@server/modules/bank/pain001.js';

const FILE_TRANSFERS = 10_000;
const STATEMENT_LINES = 50_000;
const missed: string[] = [];

const debtor = { iban: 'FR7630004000031234567890143', bic: 'BNPAFRPP', name: 'Money Transfer SAS' };

// ---- the statement (first: the process's memory is measured from a clean start) ----
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-bank-'));
const postgres = await startEmbeddedPostgres(dataDir);
const database = connect(postgres.url, 4);
try {
  await runMigrations(database);
  await seedReferenceData(database.db);
  const { rows } = await database.pool.query(`insert into profiles (email, full_name, email_verified_at, role)
    values ('bench.staff@example.test', 'Bench Staff', now(), 'manager') returning id`);
  const actor = { profile_id: rows[0].id as string, role: 'manager' as const, ip: null };
  const config = loadConfig({ DATABASE_URL: postgres.url, DATA_DIR: dataDir, NODE_ENV: 'test' });

  /** The statement as the upload would bring it: 64 KB pieces, never whole in memory. */
  async function* statement(): AsyncGenerator<string> {
    yield `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>STMT-BENCH-1</MsgId><CreDtTm>2026-11-28T18:00:00</CreDtTm></GrpHdr><Stmt><Id>S-1</Id><Acct><Id><IBAN>${debtor.iban}</IBAN></Id></Acct>`;
    let piece = '';
    for (let i = 0; i < STATEMENT_LINES; i++) {
      // Senders' and others' credits: a tenth name a transfer reference no transfer has.
      const remittance = i % 10 === 0 ? `Virement MT-NONE${i}` : `Facture ${i} loyer`;
      piece += `<Ntry><Amt Ccy="EUR">${1 + (i % 5000)}.${String(i % 100).padStart(2, '0')}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-28</Dt></BookgDt><AcctSvcrRef>BNK-${i}</AcctSvcrRef><NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><RmtInf><Ustrd>${remittance}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
      if (piece.length > 64_000) { yield piece; piece = ''; }
    }
    yield `${piece}</Stmt></BkToCstmrStmt></Document>`;
  }
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  const started = performance.now();
  const result = await importBankStatement({ config, db: database.db }, actor, statement(), 'bench.xml');
  const statementMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`camt.053 of ${STATEMENT_LINES.toLocaleString('en')} lines matched: ${statementMs.toFixed(0)} ms (budget 10,000 ms); `
    + `unmatched ${result.unmatched}; process memory ${(peak / 2 ** 20).toFixed(0)} MB at its peak, ${((peak - baseline) / 2 ** 20).toFixed(0)} MB above its start (budget 300 MB)`);
  if (statementMs >= 10_000) missed.push('statement time');
  if (peak >= 300 * 2 ** 20) missed.push('statement memory');
} finally {
  await database.pool.end();
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
// ---- the payment file ----
const transfers = Array.from({ length: FILE_TRANSFERS }, (_, i) => ({
  endToEndId: `MT-BENCH${String(i).padStart(6, '0')}`, amount: `${1 + (i * 7919) % 99_999}.${String(i % 100).padStart(2, '0')}`,
  creditorName: `Bénéficiaire ${i} Dupré`, creditorIban: 'FR7630006000011234567890189', creditorBic: null, remittance: `Awa Diallo MT-BENCH${i}`,
}));
const fileStarted = performance.now();
const xml = writePain001('BF-BENCH-1', new Date(), new Date(), debtor, transfers);
const fileMs = performance.now() - fileStarted;
console.log(`pain.001.001.09 of ${FILE_TRANSFERS.toLocaleString('en')} transfers: ${fileMs.toFixed(0)} ms, ${(xml.length / 1e6).toFixed(1)} MB (budget 2,000 ms)`);
if (fileMs >= 2000) missed.push('payment file');

console.log(missed.length ? `bank budgets missed: ${missed.join(', ')}` : 'bank budgets: met');
process.exit(missed.length ? 1 : 0);
