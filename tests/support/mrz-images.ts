import sharp from 'sharp';

// Photos of identity documents for the MRZ tests: a card with some printed text above and its
// machine-readable zone at the bottom, drawn from an SVG in DejaVu Sans Mono (installed with the
// system's fonts: `fc-list | grep "DejaVu Sans Mono"`). Check digits are computed here by ICAO
// 9303's rule (weights 7-3-1), independently of the code under test.

function digit(text: string): string {
  const w = [7, 3, 1];
  let sum = 0;
  [...text].forEach((c, i) => {
    const v = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 'A'.charCodeAt(0) + 10;
    sum += v * w[i % 3]!;
  });
  return String(sum % 10);
}

const pad = (s: string, n: number) => (s + '<'.repeat(n)).slice(0, n);
const nameField = (surname: string, given: string, n: number) => pad(`${surname.replace(/ /g, '<')}<<${given.replace(/ /g, '<')}`, n);

export interface MrzPerson {
  surname: string; given: string; number: string; nationality: string;
  /** YYMMDD */ birth: string; /** YYMMDD */ expiry: string; sex: 'M' | 'F';
  /** Replaces the document number's check digit with a wrong one. */
  wrongNumberCheck?: boolean;
}

/** A passport's zone, TD3: 2 lines of 44. */
export function td3Lines(p: MrzPerson): string[] {
  const num = pad(p.number, 9);
  let numCheck = digit(num);
  if (p.wrongNumberCheck) numCheck = String((Number(numCheck) + 3) % 10);
  const personal = pad('', 14);
  const l2 = num + numCheck + p.nationality + p.birth + digit(p.birth) + p.sex + p.expiry + digit(p.expiry) + personal + digit(personal);
  const composite = digit(num + numCheck + p.birth + digit(p.birth) + p.expiry + digit(p.expiry) + personal + digit(personal));
  return [`P<${p.nationality}${nameField(p.surname, p.given, 39)}`, l2 + composite];
}

/** An ID card's zone, TD1: 3 lines of 30. */
export function td1Lines(p: MrzPerson): string[] {
  const num = pad(p.number, 9);
  let numCheck = digit(num);
  if (p.wrongNumberCheck) numCheck = String((Number(numCheck) + 3) % 10);
  const optional1 = pad('', 15);
  const l1 = `I<${p.nationality}${num}${numCheck}${optional1}`;
  const optional2 = pad('', 11);
  const l2head = `${p.birth}${digit(p.birth)}${p.sex}${p.expiry}${digit(p.expiry)}${p.nationality}${optional2}`;
  const composite = digit(l1.slice(5, 30) + l2head.slice(0, 7) + l2head.slice(8, 15) + l2head.slice(18, 29));
  return [l1, l2head + composite, nameField(p.surname, p.given, 30)];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A photo of a card (JPEG): a title, a few printed fields and a grey photo box above, the zone in
 * the bottom band, as a phone would take it.
 */
export async function documentPhoto(lines: string[], title: string): Promise<Buffer> {
  const cols = lines[0]!.length;
  const fs = 40;
  const charW = fs * 0.602; // DejaVu Sans Mono's advance
  const width = Math.ceil(cols * charW) + 80;
  const height = Math.round(width * 0.63);
  const mrzTop = height - lines.length * fs * 1.5 - 30;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" fill="#f4efe3"/>
  <text x="40" y="56" font-family="DejaVu Sans" font-size="30" font-weight="bold" fill="#1d3a6e">${esc(title)}</text>
  <rect x="40" y="84" width="150" height="${mrzTop - 110}" fill="#b9b4aa"/>
  <text x="220" y="120" font-family="DejaVu Sans" font-size="18" fill="#333">Surname / Nom</text>
  <text x="220" y="160" font-family="DejaVu Sans" font-size="18" fill="#333">Given names / Prénoms</text>
  <text x="220" y="200" font-family="DejaVu Sans" font-size="18" fill="#333">Date of birth / Date de naissance</text>
  ${lines.map((l, i) => `<text x="40" y="${mrzTop + fs * 1.2 + i * fs * 1.5}" font-family="DejaVu Sans Mono" font-size="${fs}" fill="#111">${esc(l)}</text>`).join('\n  ')}
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}
