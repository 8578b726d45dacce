import { ListFormatError } from './format-error.js';

export interface CsvRecord {
  fields: string[];
  /** The 1-based line the record starts on. */
  line: number;
}

/** A quoted field longer than this is a quote never closed, not a field: refused before it fills memory. */
const MAX_FIELD = 1 << 20;
/** The lists' records have at most a few hundred fields; more is not one of their files. */
const MAX_FIELDS = 10_000;

/**
 * Records of a CSV file (RFC 4180) from its text in chunks: fields quoted or not, `""` inside
 * quotes, line breaks inside quotes, blank lines skipped. A quote inside an
 * unquoted field is kept as it is (the lists' files have some); records end at CRLF, LF or CR; text after a closing quote, or a
 * quote never closed, is refused with the line.
 */
export async function* parseCsv(text: AsyncIterable<string>, file: string, delimiter = ','): AsyncGenerator<CsvRecord> {
  let fields: string[] = [];
  let field = '';
  let quoted = false; // inside a quoted field
  let afterQuote = false; // just after a quoted field's closing quote
  let fieldStarted = false;
  let line = 1;
  let recordLine = 1;
  let quoteLine = 1;
  let pendingCr = false;
  const delim = delimiter.charCodeAt(0);

  const endField = () => {
    if (fields.length >= MAX_FIELDS) throw new ListFormatError(file, recordLine, 'a line has too many fields');
    fields.push(field);
    field = '';
    afterQuote = false;
    fieldStarted = false;
  };

  for await (const chunk of text) {
    let i = 0;
    const n = chunk.length;
    if (pendingCr && n > 0) {
      pendingCr = false;
      if (chunk.charCodeAt(0) === 10) i = 1;
    }
    while (i < n) {
      if (quoted) {
        const q = chunk.indexOf('"', i);
        const end = q === -1 ? n : q;
        const piece = chunk.slice(i, end);
        for (let k = piece.indexOf('\n'); k !== -1; k = piece.indexOf('\n', k + 1)) line++;
        field += piece;
        if (field.length > MAX_FIELD) throw new ListFormatError(file, quoteLine, 'a quoted field is never closed');
        if (q === -1) break;
        // A quote at the chunk's end: wait for the next chunk to know whether it is doubled.
        if (q + 1 === n) {
          i = n;
          quoted = false;
          afterQuote = true;
          continue;
        }
        if (chunk.charCodeAt(q + 1) === 34) {
          field += '"';
          i = q + 2;
        } else {
          quoted = false;
          afterQuote = true;
          i = q + 1;
        }
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (afterQuote && c === 34 && i === 0) {
        // The quote split across chunks was doubled.
        field += '"';
        quoted = true;
        afterQuote = false;
        i++;
        continue;
      }
      if (c === delim) {
        endField();
        i++;
      } else if (c === 10 || c === 13) {
        if (fields.length > 0 || field !== '' || afterQuote || fieldStarted) {
          endField();
          yield { fields, line: recordLine };
          fields = [];
        }
        line++;
        if (c === 13) {
          if (i + 1 < n) {
            if (chunk.charCodeAt(i + 1) === 10) i++;
          } else pendingCr = true;
        }
        i++;
        recordLine = line;
      } else if (afterQuote && (c === 32 || c === 9)) {
        // Spaces after a closing quote are padding.
        i++;
      } else if (afterQuote) {
        throw new ListFormatError(file, line, 'text after a closing quote');
      } else if (c === 34 && field === '' && !fieldStarted) {
        quoted = true;
        quoteLine = line;
        i++;
      } else {
        // Unquoted text up to the next delimiter or line break.
        let j = i + 1;
        while (j < n) {
          const d = chunk.charCodeAt(j);
          if (d === delim || d === 10 || d === 13) break;
          j++;
        }
        field += chunk.slice(i, j);
        fieldStarted = true;
        if (field.length > MAX_FIELD) throw new ListFormatError(file, line, 'a line is too long');
        i = j;
      }
    }
  }
  if (quoted) throw new ListFormatError(file, quoteLine, 'a quoted field is never closed');
  if (fields.length > 0 || field !== '' || afterQuote || fieldStarted) {
    endField();
    yield { fields, line: recordLine };
  }
}
