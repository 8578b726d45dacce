import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Issue 29: a French reader reads « Estuaire », not "Estuaire Province"; the name a profile keeps
// stays the data's own, whatever the language the region was picked in.

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

type Region = { id: string; name: string; label: string };
const regions = async (country: string, lang: string) => {
  const res = await t.request({ method: 'GET', url: `/api/geo/countries/${country}/states`, headers: { 'accept-language': lang } });
  expect(res.statusCode).toBe(200);
  expect(res.headers.vary).toMatch(/Accept-Language/);
  return res.json().data as Region[];
};
const labels = (list: Region[]) => list.map((r) => r.label);

describe('region names in the reader’s language', () => {
  it('Gabon: the nine provinces by their own names in French, without “Province”; as the data names them in English', async () => {
    const fr = await regions('GA', 'fr-FR,fr;q=0.9');
    expect(labels(fr)).toEqual([
      'Estuaire', 'Haut-Ogooué', 'Moyen-Ogooué', 'Ngounié', 'Nyanga',
      'Ogooué-Ivindo', 'Ogooué-Lolo', 'Ogooué-Maritime', 'Woleu-Ntem',
    ]);
    expect(labels(fr).filter((l) => /Province/.test(l))).toEqual([]);
    expect(fr).toContainEqual({ id: '1', name: 'Estuaire Province', label: 'Estuaire' });

    const en = await regions('GA', 'en-US,en;q=0.9');
    expect(en).toContainEqual({ id: '1', name: 'Estuaire Province', label: 'Estuaire Province' });
    expect(labels(en)).toContain('Woleu-Ntem Province');
  });

  it('Rwanda: « Province de l’Est » … « Ville de Kigali » in French; Eastern Province … Kigali City in English', async () => {
    expect(labels(await regions('RW', 'fr'))).toEqual([
      'Province de l’Est', 'Province de l’Ouest', 'Province du Nord', 'Province du Sud', 'Ville de Kigali',
    ]);
    expect(labels(await regions('RW', 'en')).sort()).toEqual([
      'Eastern Province', 'Kigali City', 'Northern Province', 'Southern Province', 'Western Province',
    ]);
  });

  it('keeps the same stored name for a region in both languages', async () => {
    for (const country of ['GA', 'RW', 'FR', 'CM', 'CG', 'BI']) {
      const byId = (list: Region[]) => Object.fromEntries(list.map((r) => [r.id, r.name]));
      expect(byId(await regions(country, 'fr')), country).toEqual(byId(await regions(country, 'en')));
    }
  });

  it('France: its regions already read in French; French Guiana reads « Guyane » in French', async () => {
    const fr = labels(await regions('FR', 'fr'));
    for (const region of ['Île-de-France', 'Auvergne-Rhône-Alpes', 'Provence-Alpes-Côte-d’Azur', 'Guyane']) expect(fr).toContain(region);
    expect(fr).not.toContain('French Guiana');
    expect(labels(await regions('FR', 'en'))).toContain('French Guiana');
  });

  it('French-speaking neighbours lose their English suffixes in French', async () => {
    const cameroon = labels(await regions('CM', 'fr'));
    for (const region of ['Adamaoua', 'Extrême-Nord', 'Nord-Ouest', 'Sud-Ouest', 'Littoral']) expect(cameroon).toContain(region);
    expect(cameroon).not.toContain('Far North');
    const congo = labels(await regions('CG', 'fr'));
    for (const region of ['Bouenza', 'Brazzaville', 'Pointe-Noire', 'Cuvette-Ouest']) expect(congo).toContain(region);
    const burundi = labels(await regions('BI', 'fr'));
    expect(burundi).toContain('Bujumbura Mairie');
    for (const list of [congo, burundi]) expect(list.filter((l) => /Province|Department/.test(l))).toEqual([]);
  });
});
