// The ECB's euro reference-rate file as it publishes it (eurofxref-daily.xml has one day,
// eurofxref-hist-90d.xml the last 90): gesmes:Envelope > Cube > Cube time > Cube currency rate,
// units of the currency per 1 EUR, latest day first.

export interface EcbTestDay { day: string; rates: Record<string, string> }

export function ecbRatesFile(days: EcbTestDay[]): string {
  const cubes = days.map(({ day, rates }) => [
    `\t\t<Cube time='${day}'>`,
    ...Object.entries(rates).map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`),
    '\t\t</Cube>',
  ].join('\n')).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
${cubes}
\t</Cube>
</gesmes:Envelope>
`;
}

/** Three working days as the 90 days' file lists them (latest first), with a few of its currencies. */
export const ECB_THREE_DAYS = ecbRatesFile([
  { day: '2026-11-25', rates: { USD: '1.0512', JPY: '160.53', GBP: '0.83215', CHF: '0.9311' } },
  { day: '2026-11-24', rates: { USD: '1.0478', JPY: '160.12', GBP: '0.83110', CHF: '0.9302' } },
  { day: '2026-11-23', rates: { USD: '1.0455', JPY: '159.98', GBP: '0.83020', CHF: '0.9298' } },
]);
