// The bank rail (docs/rules/bank-rail.md): SEPA payout files for the business's bank and its
// statements read back. The module's public face.

export { bankAccount, cancelBankFile, createBankFile, downloadBankFile, listBankFiles } from './files.js';
export { importBankStatement, listBankStatements, statementEntries } from './statements.js';
