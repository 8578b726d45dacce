import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { SaxesParser } from 'saxes';
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

/** Text and attribute values escaped as the sepa package writes them (pain001.ts), so what is kept reads byte for byte as written. */
function escaped(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
}

/**
 * The file's XML, read with an XML parser and written again as it was, but for the credit
 * transfers of `references` (EndToEndId → the transfer's reference): their creditor's name and
 * IBAN, and their remittance text (which names the sender), replaced. A transfer's EndToEndId comes
 * before its creditor and remittance (PmtId is CdtTrfTxInf's first element).
 */
export function eraseCreditTransfers(xml: string, references: ReadonlyMap<string, string>): string {
  const parser = new SaxesParser();
  const out: string[] = [];
  const path: string[] = [];
  let endToEndId = '';
  /** The reference of the credit transfer being read, when it is erased. */
  let erasing: string | undefined;
  /** What replaces the text of the element being read, when it is one erased. */
  const replacement = (): string | undefined => {
    if (erasing === undefined) return undefined;
    const [parent, name] = path.slice(-2);
    if (name === 'Nm' && parent === 'Cdtr') return ERASED_NAME;
    if (name === 'IBAN' && path.at(-3) === 'CdtrAcct') return ERASED_IBAN;
    if (name === 'Ustrd' && parent === 'RmtInf') return erasing;
    return undefined;
  };
  parser.on('xmldecl', (decl) => {
    out.push(`<?xml version="${decl.version ?? '1.0'}"${decl.encoding ? ` encoding="${decl.encoding}"` : ''}${decl.standalone ? ` standalone="${decl.standalone}"` : ''}?>`);
  });
  parser.on('opentag', (tag) => {
    path.push(tag.name);
    if (tag.name === 'EndToEndId') endToEndId = '';
    const attributes = Object.entries(tag.attributes as Record<string, string>).map(([name, value]) => ` ${name}="${escaped(value)}"`).join('');
    out.push(`<${tag.name}${attributes}${tag.isSelfClosing ? '/>' : '>'}`);
  });
  parser.on('text', (text) => {
    if (path.at(-1) === 'EndToEndId') endToEndId += text;
    if (replacement() === undefined) out.push(escaped(text));
  });
  parser.on('closetag', (tag) => {
    const put = replacement();
    if (put !== undefined) out.push(escaped(put));
    if (tag.name === 'EndToEndId' && path.at(-3) === 'CdtTrfTxInf') erasing = references.get(endToEndId);
    if (tag.name === 'CdtTrfTxInf') erasing = undefined;
    if (!tag.isSelfClosing) out.push(`</${tag.name}>`);
    path.pop();
  });
  parser.write(xml).close();
  return out.join('');
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
