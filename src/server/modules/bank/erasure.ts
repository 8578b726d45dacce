import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Tx } from '@server/db/client.js';
import { bankFiles, payoutAttempts, transferRequests } from '@server/db/schema.js';

// A sender's data erased from the bank files already made (docs/rules/your-data.md#kept-for-5-years-then-erased):
// in each stored file, the credit transfers of that sender's payouts keep their EndToEndId and
// amount (so the file's count, control sum and the books still agree) but lose the recipient's
// name and IBAN, and the remittance text its sender's name. The file stays downloadable, as it
// now stands: the admin's later download is the erased file.

/** What an erased recipient's name and IBAN read in a stored file (the IBAN keeps its shape: two letters, two digits, then letters). */
export const ERASED_NAME = 'ERASED';
export const ERASED_IBAN = 'XX00ERASED';

/**
 * The file's XML with the credit transfers of `references` (EndToEndId → the transfer's reference)
 * erased. The file was written by us (pain001.ts), its texts in the SEPA character set, so no
 * name or remittance can hold markup.
 */
export function eraseCreditTransfers(xml: string, references: ReadonlyMap<string, string>): string {
  return xml.replace(/<CdtTrfTxInf>[\s\S]*?<\/CdtTrfTxInf>/g, (block) => {
    const endToEndId = /<EndToEndId>([^<]*)<\/EndToEndId>/.exec(block)?.[1];
    const reference = endToEndId === undefined ? undefined : references.get(endToEndId);
    if (reference === undefined) return block;
    return block
      .replace(/<Cdtr><Nm>[^<]*<\/Nm>/, `<Cdtr><Nm>${ERASED_NAME}</Nm>`)
      .replace(/<CdtrAcct><Id><IBAN>[^<]*<\/IBAN>/, `<CdtrAcct><Id><IBAN>${ERASED_IBAN}</IBAN>`)
      .replace(/<Ustrd>[^<]*<\/Ustrd>/, `<Ustrd>${reference}</Ustrd>`);
  });
}

/** Erases, in every stored bank file, the recipients' names and IBANs of this sender's payouts (and the sender's name in their remittance). */
export async function eraseSendersBankFiles(tx: Tx, profileId: string): Promise<void> {
  const paid = await tx.select({ endToEndId: payoutAttempts.reference, fileId: payoutAttempts.bank_file_id, reference: transferRequests.reference })
    .from(payoutAttempts).innerJoin(transferRequests, eq(transferRequests.id, payoutAttempts.transfer_id))
    .where(and(eq(transferRequests.profile_id, profileId), isNotNull(payoutAttempts.bank_file_id)));
  const byFile = new Map<string, Map<string, string>>();
  for (const p of paid) {
    const refs = byFile.get(p.fileId!) ?? new Map<string, string>();
    refs.set(p.endToEndId, p.reference);
    byFile.set(p.fileId!, refs);
  }
  if (byFile.size === 0) return;
  const files = await tx.select({ id: bankFiles.id, xml: bankFiles.xml }).from(bankFiles).where(inArray(bankFiles.id, [...byFile.keys()])).for('update');
  for (const file of files) {
    const erased = eraseCreditTransfers(file.xml, byFile.get(file.id)!);
    if (erased !== file.xml) await tx.update(bankFiles).set({ xml: erased }).where(eq(bankFiles.id, file.id));
  }
}
