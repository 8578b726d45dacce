// The bank rail (docs/rules/bank-rail.md): SEPA payout files for the business's bank and its
// statements read back. The module's public face.

export { bankAccount, cancelBankFile, createBankFile, downloadBankFile, listBankFiles, runBankFileMailsJob } from './files.js';
export { importBankStatement, listBankStatements, statementEntries, unmatchedBankLines } from './statements.js';
export { eraseSendersBankFiles } from './erasure.js';
export { cutoffCron, runBankFileCutoff } from './cutoff.js';
export { runStatementsDirImport } from './statements-dir.js';
export { runStatementMailsJob } from './statement-mails.js';
