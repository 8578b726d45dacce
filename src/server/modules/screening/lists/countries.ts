import { countries } from '@server/modules/geo/service.js';

// The lists name countries in words, each its own way; the matcher compares ISO 3166-1 alpha-2
// codes. Names the country table spells otherwise are added here.
const OTHER_NAMES: Record<string, string> = {
  'russian federation': 'RU',
  russia: 'RU',
  'iran (islamic republic of)': 'IR',
  'iran, islamic republic of': 'IR',
  'syrian arab republic': 'SY',
  "democratic people's republic of korea": 'KP',
  'korea, north': 'KP',
  'north korea': 'KP',
  'republic of korea': 'KR',
  'korea, south': 'KR',
  'south korea': 'KR',
  burma: 'MM',
  'lao people\'s democratic republic': 'LA',
  'venezuela (bolivarian republic of)': 'VE',
  'bolivia (plurinational state of)': 'BO',
  'united republic of tanzania': 'TZ',
  'democratic republic of the congo': 'CD',
  'congo, democratic republic of the': 'CD',
  'republic of the congo': 'CG',
  'viet nam': 'VN',
  'united kingdom of great britain and northern ireland': 'GB',
  'united kingdom': 'GB',
  'united states of america': 'US',
  'united states': 'US',
  "cote d'ivoire": 'CI',
  'ivory coast': 'CI',
  'state of palestine': 'PS',
  'west bank': 'PS',
  'gaza': 'PS',
  'turkiye': 'TR',
  'republic of moldova': 'MD',
  'the former yugoslav republic of macedonia': 'MK',
};

let byName: Map<string, string> | null = null;

const key = (name: string) => name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** The alpha-2 code of a country named in words (or already a code), else the name as written. */
export function countryCode(name: string): string {
  const written = name.replace(/\s+/g, ' ').trim();
  if (/^[A-Z]{2}$/.test(written)) return written;
  if (!byName) {
    byName = new Map(countries().map((c) => [key(c.name), c.id]));
    for (const [n, code] of Object.entries(OTHER_NAMES)) byName.set(key(n), code);
  }
  return byName.get(key(written)) ?? written;
}
