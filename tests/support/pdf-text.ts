import { PDFParse } from 'pdf-parse';

/** The text a PDF shows, as a reader would copy it (pdf-parse, on Mozilla's pdf.js). */
export async function pdfText(file: Buffer | Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(file) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
