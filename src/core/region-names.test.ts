import { describe, expect, it } from 'vitest';
import data from 'country-state-city/lib/assets/state.json';
import { LANGUAGES } from './languages';
import { regionLabel, storedRegionLabel } from './region-names';

// A region's name in the reader's language, from the picker's code or from the name a profile
// keeps (staff screens): both give the same name for every region of the address data.

const states = data as { name: string; isoCode: string; countryCode: string }[];

describe('region names', () => {
  it('a kept name reads as the picker shows it, in each language, for every region of the data', () => {
    for (const s of states) {
      for (const lang of LANGUAGES) {
        expect(storedRegionLabel(s.countryCode, s.name, lang), `${s.countryCode} ${s.isoCode} ${lang}`)
          .toBe(regionLabel(s.countryCode, { id: s.isoCode, name: s.name }, lang));
      }
    }
  });

  it('staff read « Estuaire » in French for the kept "Estuaire Province", and the kept text when nothing better is known', () => {
    expect(storedRegionLabel('GA', 'Estuaire Province', 'fr')).toBe('Estuaire');
    expect(storedRegionLabel('ga', 'Estuaire Province', 'en')).toBe('Estuaire Province');
    expect(storedRegionLabel('RW', 'Kigali district', 'en')).toBe('Kigali City');
    expect(storedRegionLabel('GA', 'Somewhere else', 'fr')).toBe('Somewhere else');
    expect(storedRegionLabel(null, 'Estuaire Province', 'fr')).toBe('Estuaire Province');
  });
});
