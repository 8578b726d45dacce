import { BankFilesSection } from './bank-files-section';
import { BankStatementsSection } from './bank-statements-section';

/** The bank rail's work (docs/rules/bank-rail.md): payout files for the bank, and its statements read back. */
export function BankTab() {
  return (
    <div className="flex flex-col gap-6">
      <BankFilesSection />
      <BankStatementsSection />
    </div>
  );
}
