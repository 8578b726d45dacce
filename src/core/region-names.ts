import type { Lang } from './languages.js';

// A region's name in the reader's language. The address data (country-state-city) names regions
// in English, often with an English "Province" or "Department" that a French speaker never writes
// ("Estuaire Province" is « Estuaire »). A profile keeps the data's own name (stable whatever the
// language it was picked in); this table only changes what is shown. Countries not listed, and
// regions not listed, read as the data names them. Staff screens show a profile's kept name the
// same way (storedRegionLabel), so the data's own name is written beside each entry.

/** `data`: the data's own name (what a profile keeps); then the name per language. */
type Names = { data: string } & Partial<Record<Lang, string>>;

/** country → region code (the data's) → its names. */
const REGION_NAMES: Record<string, Record<string, Names>> = {
  // Gabon: the nine provinces, as the country names them.
  GA: {
    1: { data: 'Estuaire Province', fr: 'Estuaire' },
    2: { data: 'Haut-Ogooué Province', fr: 'Haut-Ogooué' },
    3: { data: 'Moyen-Ogooué Province', fr: 'Moyen-Ogooué' },
    4: { data: 'Ngounié Province', fr: 'Ngounié' },
    5: { data: 'Nyanga Province', fr: 'Nyanga' },
    6: { data: 'Ogooué-Ivindo Province', fr: 'Ogooué-Ivindo' },
    7: { data: 'Ogooué-Lolo Province', fr: 'Ogooué-Lolo' },
    8: { data: 'Ogooué-Maritime Province', fr: 'Ogooué-Maritime' },
    9: { data: 'Woleu-Ntem Province', fr: 'Woleu-Ntem' },
  },
  // Rwanda: four provinces and the city of Kigali (the data calls it "Kigali district").
  RW: {
    '01': { data: 'Kigali district', en: 'Kigali City', fr: 'Ville de Kigali' },
    '02': { data: 'Eastern Province', fr: 'Province de l’Est' },
    '03': { data: 'Northern Province', fr: 'Province du Nord' },
    '04': { data: 'Western Province', fr: 'Province de l’Ouest' },
    '05': { data: 'Southern Province', fr: 'Province du Sud' },
  },
  // France: the data names its regions in French, but for one.
  FR: { 973: { data: 'French Guiana', fr: 'Guyane' } },
  // Cameroon: the ten regions, named in English by the data.
  CM: {
    AD: { data: 'Adamawa', fr: 'Adamaoua' },
    EN: { data: 'Far North', fr: 'Extrême-Nord' },
    ES: { data: 'East', fr: 'Est' },
    NO: { data: 'North', fr: 'Nord' },
    NW: { data: 'Northwest', fr: 'Nord-Ouest' },
    OU: { data: 'West', fr: 'Ouest' },
    SU: { data: 'South', fr: 'Sud' },
    SW: { data: 'Southwest', fr: 'Sud-Ouest' },
  },
  // Republic of the Congo: its departments, without the English "Department".
  CG: {
    2: { data: 'Lékoumou Department', fr: 'Lékoumou' },
    5: { data: 'Kouilou Department', fr: 'Kouilou' },
    7: { data: 'Likouala Department', fr: 'Likouala' },
    8: { data: 'Cuvette Department', fr: 'Cuvette' },
    9: { data: 'Niari Department', fr: 'Niari' },
    11: { data: 'Bouenza Department', fr: 'Bouenza' },
    12: { data: 'Pool Department', fr: 'Pool' },
    13: { data: 'Sangha Department', fr: 'Sangha' },
    14: { data: 'Plateaux Department', fr: 'Plateaux' },
    15: { data: 'Cuvette-Ouest Department', fr: 'Cuvette-Ouest' },
  },
  // Burundi: its provinces, without the English "Province".
  BI: {
    BB: { data: 'Bubanza Province', fr: 'Bubanza' },
    BL: { data: 'Bujumbura Rural Province', fr: 'Bujumbura Rural' },
    BM: { data: 'Bujumbura Mairie Province', fr: 'Bujumbura Mairie' },
    BR: { data: 'Bururi Province', fr: 'Bururi' },
    CA: { data: 'Cankuzo Province', fr: 'Cankuzo' },
    CI: { data: 'Cibitoke Province', fr: 'Cibitoke' },
    GI: { data: 'Gitega Province', fr: 'Gitega' },
    KI: { data: 'Kirundo Province', fr: 'Kirundo' },
    KR: { data: 'Karuzi Province', fr: 'Karuzi' },
    KY: { data: 'Kayanza Province', fr: 'Kayanza' },
    MA: { data: 'Makamba Province', fr: 'Makamba' },
    MU: { data: 'Muramvya Province', fr: 'Muramvya' },
    MW: { data: 'Mwaro Province', fr: 'Mwaro' },
    MY: { data: 'Muyinga Province', fr: 'Muyinga' },
    NG: { data: 'Ngozi Province', fr: 'Ngozi' },
    RM: { data: 'Rumonge Province', fr: 'Rumonge' },
    RT: { data: 'Rutana Province', fr: 'Rutana' },
    RY: { data: 'Ruyigi Province', fr: 'Ruyigi' },
  },
};

/** The name to show for a region of the data (`name` is the data's own, kept when no better one is known). */
export function regionLabel(country: string, region: { id: string; name: string }, lang: Lang): string {
  return REGION_NAMES[country.toUpperCase()]?.[region.id]?.[lang] ?? region.name;
}

/**
 * The name to show for a region as a profile keeps it (the data's own name, or any text an older
 * profile holds): the reader's name for it when known, else the kept text as it is.
 */
export function storedRegionLabel(country: string | null | undefined, stored: string, lang: Lang): string {
  const regions = country ? REGION_NAMES[country.toUpperCase()] : undefined;
  if (!regions) return stored;
  for (const names of Object.values(regions)) if (names.data === stored) return names[lang] ?? stored;
  return stored;
}
