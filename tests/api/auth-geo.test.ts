import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const get = (url: string) => t.request({ method: 'GET', url });

describe('countries, states and cities served by the app itself', () => {
  it('lists countries as picker items { id, name, emoji }, cacheable', async () => {
    const res = await get('/api/geo/countries');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const { data } = res.json();
    expect(data.length).toBeGreaterThan(200);
    expect(data.find((c: { id: string }) => c.id === 'GA')).toEqual({ id: 'GA', name: 'Gabon', emoji: '🇬🇦', phone_code: '241' });
    expect(data.find((c: { id: string }) => c.id === 'US')).toMatchObject({ name: 'United States', phone_code: '1' });
  });

  it('lists the states of a country', async () => {
    const { data } = (await get('/api/geo/countries/GA/states')).json();
    expect(data).toContainEqual({ id: '1', name: 'Estuaire Province', label: 'Estuaire Province' });
    expect(data).toHaveLength(9);
    expect((await get('/api/geo/countries/ga/states')).json().data).toHaveLength(9);
  });

  it('lists the cities of a state, or of the whole country', async () => {
    const estuaire = (await get('/api/geo/countries/GA/cities?state=1')).json().data;
    expect(estuaire).toContainEqual({ name: 'Libreville' });
    expect(estuaire.every((c: { name: string }) => typeof c.name === 'string')).toBe(true);
    const all = (await get('/api/geo/countries/GA/cities')).json().data.map((c: { name: string }) => c.name);
    expect(all).toContain('Libreville');
    expect(all).toContain('Franceville');
    expect(all).toEqual([...all].sort((a: string, b: string) => a.localeCompare(b, 'en')));
    expect((await get('/api/geo/countries/GA/cities?state=99')).json().data).toEqual([]);
  });

  it("France: its 18 regions (no departments mixed in), each with its cities; no department shown as a city", async () => {
    const regions = (await get('/api/geo/countries/FR/states')).json().data as { id: string; name: string }[];
    const names = regions.map((r) => r.name);
    expect(regions).toHaveLength(18);
    for (const region of ['Île-de-France', 'Auvergne-Rhône-Alpes', 'Corse', 'Bretagne', 'Guadeloupe', 'La Réunion']) expect(names).toContain(region);
    for (const department of ['Essonne', 'Ain', 'Paris', 'Haute-Corse', 'Alsace', 'Métropole de Lyon']) expect(names).not.toContain(department);
    for (const region of regions.filter((r) => !/^97/.test(r.id))) {
      expect((await get(`/api/geo/countries/FR/cities?state=${region.id}`)).json().data.length, region.name).toBeGreaterThan(0);
    }
    const idf = (await get(`/api/geo/countries/FR/cities?state=${regions.find((r) => r.name === 'Île-de-France')!.id}`)).json().data
      .map((c: { name: string }) => c.name);
    expect(idf).toContain('Évry');
    expect(idf).not.toContain("Département de l'Essonne");
    const all = (await get('/api/geo/countries/FR/cities')).json().data.map((c: { name: string }) => c.name);
    expect(all.filter((n: string) => n.startsWith('Département'))).toEqual([]);
  });

  it('answers 404 for an unknown country', async () => {
    expect((await get('/api/geo/countries/XX/states')).statusCode).toBe(404);
    expect((await get('/api/geo/countries/XX/cities')).statusCode).toBe(404);
    expect((await get('/api/geo/countries/GAB/cities')).statusCode).toBe(404);
  });
});
