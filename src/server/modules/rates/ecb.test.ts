import { describe, expect, it } from 'vitest';
import { AppError } from '@core/errors.js';
import { latestUsd, parseEcbFile } from './ecb.js';

// The ECB's reference-rate file read with a streaming XML parser (docs/rules/fees-and-rates.md#rate-sources).

const refused = (xml: string) => {
  try {
    parseEcbFile(xml);
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
  return 'accepted';
};

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>`;
const TAIL = '\t</Cube>\n</gesmes:Envelope>\n';

/** The file as the ECB publishes it (as tests/support/ecb-rates-file.ts writes it for the API tests). */
const ecbRatesFile = (days: { day: string; rates: Record<string, string> }[]) =>
  `${HEAD}\n${days.map(({ day, rates }) => [
    `\t\t<Cube time='${day}'>`,
    ...Object.entries(rates).map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`),
    '\t\t</Cube>',
  ].join('\n')).join('\n')}\n${TAIL}`;

const ECB_THREE_DAYS = ecbRatesFile([
  { day: '2026-11-25', rates: { USD: '1.0512', JPY: '160.53', GBP: '0.83215', CHF: '0.9311' } },
  { day: '2026-11-24', rates: { USD: '1.0478', JPY: '160.12', GBP: '0.83110', CHF: '0.9302' } },
  { day: '2026-11-23', rates: { USD: '1.0455', JPY: '159.98', GBP: '0.83020', CHF: '0.9298' } },
]);

/** The documented bound, 2 MB (docs/rules/fees-and-rates.md), in MiB as ecb.ts counts it. */
const TWO_MB = 2 * 1024 * 1024;

/** Just under 2 MB: `unit` repeated between `head` and `tail`. */
function repeated(head: string, unit: string, tail: string, bytes = TWO_MB - 1024): string {
  return head + unit.repeat(Math.floor((bytes - head.length - tail.length) / unit.length)) + tail;
}

describe('the ECB reference-rate file', () => {
  it('reads every day, latest first, with their currencies', () => {
    const days = parseEcbFile(ECB_THREE_DAYS);
    expect(days.map((d) => d.day)).toEqual(['2026-11-25', '2026-11-24', '2026-11-23']);
    expect(Object.fromEntries(days[0]!.rates)).toEqual({ USD: '1.0512', JPY: '160.53', GBP: '0.83215', CHF: '0.9311' });
    expect(latestUsd(ECB_THREE_DAYS)).toEqual({ day: '2026-11-25', rate: '1.0512' });
    // Days out of order are sorted; the latest with a USD rate is taken.
    const shuffled = ecbRatesFile([{ day: '2026-11-24', rates: { USD: '1.0478' } }, { day: '2026-11-26', rates: { JPY: '161.02' } }, { day: '2026-11-25', rates: { USD: '1.0512' } }]);
    expect(latestUsd(shuffled)).toEqual({ day: '2026-11-25', rate: '1.0512' });
    // Double quotes, an unprefixed root, a byte-order mark and entities read as XML reads them.
    expect(latestUsd(`\uFEFF<Envelope><Cube><Cube time="2026-11-27"><Cube currency="USD" rate="1.0601"/><Cube currency="X&amp;Y" rate="2"/></Cube></Cube></Envelope>`))
      .toEqual({ day: '2026-11-27', rate: '1.0601' });
  });

  it('refuses a file that is not well-formed, not an ECB file, or holds no day (ecb_file_invalid)', () => {
    // Malformed: cut short, a tag never closed, a mismatched end tag, an unknown entity, two roots.
    expect(refused(ECB_THREE_DAYS.slice(0, ECB_THREE_DAYS.length / 2))).toBe('ecb_file_invalid');
    expect(refused(ECB_THREE_DAYS.replace('</gesmes:Envelope>', ''))).toBe('ecb_file_invalid');
    expect(refused(ECB_THREE_DAYS.replace("\t\t</Cube>", '\t\t</Cub>'))).toBe('ecb_file_invalid');
    expect(refused(ECB_THREE_DAYS.replace('Reference rates', '&bogus;'))).toBe('ecb_file_invalid');
    expect(refused(`${ECB_THREE_DAYS}<gesmes:Envelope/>`)).toBe('ecb_file_invalid');
    expect(refused('<Cube time="2026-11-25"><Cube currency="USD" rate="1.05"/></Cube>')).toBe('ecb_file_invalid');
    expect(refused('<html><body>Not the ECB</body></html>')).toBe('ecb_file_invalid');
    expect(refused('not xml at all')).toBe('ecb_file_invalid');
    expect(refused('')).toBe('ecb_file_invalid');
    // Well-formed, but no day, or no USD rate on any day.
    expect(refused(`${HEAD}${TAIL}`)).toBe('ecb_file_invalid');
    expect(refused(`${HEAD}<Cube time="yesterday"><Cube currency="USD" rate="1.05"/></Cube>${TAIL}`)).toBe('ecb_file_invalid');
    expect(() => latestUsd(ecbRatesFile([{ day: '2026-11-25', rates: { JPY: '160.53', USD: '1,05' } }]))).toThrow(expect.objectContaining({ code: 'ecb_file_invalid' }));
  });

  it('refuses a file over its size before reading it', () => {
    const big = repeated(`${HEAD}<Cube time="2026-11-25"><Cube currency="USD" rate="1.05"/>`, '<Cube currency="JPY" rate="160.5"/>', `</Cube>${TAIL}`, TWO_MB + 100);
    expect(Buffer.byteLength(big)).toBeGreaterThan(TWO_MB);
    expect(refused(big)).toBe('ecb_file_invalid');
  });

  it('handles a file of 2 MB of repeated elements (figures: npm run bench -- ecb)', () => {
    // What took the regular expressions 19 s: 2 MB of day elements never closed (each one read to
    // the end of the file looking for its end).
    const unclosed = repeated(HEAD, "<Cube time='2026-11-25'>", TAIL);
    expect(Buffer.byteLength(unclosed)).toBeGreaterThan(2_000_000);
    expect(refused(unclosed)).toBe('ecb_file_invalid');
    // 2 MB of rates in one day, and of days, well-formed: read whole.
    const rates = repeated(`${HEAD}<Cube time="2026-11-25"><Cube currency="USD" rate="1.0512"/>`, '<Cube currency="JPY" rate="160.53"/>', `</Cube>${TAIL}`);
    expect(latestUsd(rates)).toEqual({ day: '2026-11-25', rate: '1.0512' });
    const days = repeated(HEAD, "<Cube time='2026-11-24'><Cube currency='USD' rate='1.0478'/></Cube>", TAIL);
    expect(parseEcbFile(days).length).toBeGreaterThan(25_000);
    // Repeated start tags never ended, comments and nesting: refused as XML, not searched.
    expect(refused(repeated(HEAD, '<Cube ', TAIL))).toBe('ecb_file_invalid');
    expect(refused(repeated(HEAD, '<Cube>', TAIL))).toBe('ecb_file_invalid');
    expect(refused(repeated(HEAD, '<!--', TAIL))).toBe('ecb_file_invalid');
  });
});
