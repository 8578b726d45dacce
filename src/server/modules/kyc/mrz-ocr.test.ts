import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readMrzPhoto, stopMrzOcr } from './mrz-ocr';

// A passport's data page read from its photo (docs/rules/know-your-sender.md#machine-readable-zone):
// ICAO 9303's own specimen zone (part 4, appendix A: Anna Maria Eriksson, Utopia) drawn in the
// monospace fonts the machine has closest to OCR-B, as a phone would photograph the page. Read by
// tesseract, its fillers come back as runs of L, K and C: cleaned by the zone's layout, it reads
// right. Speckled with ink, it is said unreadable, never read wrong.

const SPECIMEN = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const ANNA = { full_name: 'Anna Maria Eriksson', date_of_birth: '1974-08-12' };
const NOW = new Date('2026-11-28T12:00:00Z');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A data page: a title and a photo box above, the zone at the bottom; `specks` dots of ink over the zone. */
async function dataPage(font: string, specks = 0): Promise<Buffer> {
  const fs = 40;
  const width = Math.ceil(44 * fs * 0.602) + 80;
  const height = Math.round(width * 0.7);
  const top = height - 2 * fs * 1.5 - 30;
  // Placed by a fixed pattern, not at random: the same photo every run.
  const dots = Array.from({ length: specks }, (_, i) =>
    `<circle cx="${(i * 97) % width}" cy="${top + ((i * 53) % (height - top))}" r="${1 + (i % 3)}" fill="#222"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" fill="#f4efe3"/>
  <text x="40" y="56" font-family="DejaVu Sans" font-size="30" font-weight="bold" fill="#1d3a6e">PASSPORT / PASSEPORT</text>
  <rect x="40" y="84" width="150" height="${top - 110}" fill="#b9b4aa"/>
  ${SPECIMEN.map((l, i) => `<text x="40" y="${top + fs * 1.2 + i * fs * 1.5}" font-family="${font}" font-size="${fs}" fill="#111">${esc(l)}</text>`).join('')}
  ${dots}
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

afterAll(() => stopMrzOcr());

describe('a passport\'s zone read from its photo', () => {
  it.each(['DejaVu Sans Mono', 'Liberation Mono'])('reads the ICAO specimen printed in %s right: every check digit, the name, the dates', async (font) => {
    const r = await readMrzPhoto(await dataPage(font), ANNA, NOW);
    expect(r).toMatchObject({
      status: 'read', format: 'TD3', valid: true, lines: SPECIMEN, document_number: 'L898902C3', surname: 'ERIKSSON', given_names: 'ANNA MARIA',
      birth_date: '1974-08-12', expiry_date: '2012-04-15', expired: true, name_matches_profile: true, birth_date_matches_profile: true,
      checks: { document_number: true, birth_date: true, expiry_date: true, personal_number: true, composite: true },
    });
  }, 60_000);

  it('says a speckled photo of it could not be read: no name, no verdict on check digits or the profile', async () => {
    const r = await readMrzPhoto(await dataPage('DejaVu Sans Mono', 500), ANNA, NOW);
    expect(r).toMatchObject({
      status: 'unreadable', lines: [], valid: false, checks: {}, surname: null, given_names: null,
      name_matches_profile: null, birth_date_matches_profile: null, expired: null,
    });
  }, 60_000);
});
