import type { Lang } from './languages.js';

// A region's name in the reader's language. The address data (country-state-city) names regions
// in English, often with an English "Province" or "Department" that a French speaker never writes
// ("Estuaire Province" is « Estuaire »). A profile keeps the data's own name (stable whatever the
// language it was picked in); this table only changes what is shown. Countries not listed, and
// regions not listed, read as the data names them.

type Names = Partial<Record<Lang, string>>;

/** country → region code (the data's) → its name per language. */
const REGION_NAMES: Record<string, Record<string, Names>> = {
  // Gabon: the nine provinces, as the country names them.
  GA: {
    1: { fr: 'Estuaire' },
    2: { fr: 'Haut-Ogooué' },
    3: { fr: 'Moyen-Ogooué' },
    4: { fr: 'Ngounié' },
    5: { fr: 'Nyanga' },
    6: { fr: 'Ogooué-Ivindo' },
    7: { fr: 'Ogooué-Lolo' },
    8: { fr: 'Ogooué-Maritime' },
    9: { fr: 'Woleu-Ntem' },
  },
  // Rwanda: four provinces and the city of Kigali (the data calls it "Kigali district").
  RW: {
    '01': { en: 'Kigali City', fr: 'Ville de Kigali' },
    '02': { fr: 'Province de l’Est' },
    '03': { fr: 'Province du Nord' },
    '04': { fr: 'Province de l’Ouest' },
    '05': { fr: 'Province du Sud' },
  },
  // France: the data names its regions in French, but for one.
  FR: { 973: { fr: 'Guyane' } },
  // Cameroon: the ten regions, named in English by the data.
  CM: {
    AD: { fr: 'Adamaoua' },
    EN: { fr: 'Extrême-Nord' },
    ES: { fr: 'Est' },
    NO: { fr: 'Nord' },
    NW: { fr: 'Nord-Ouest' },
    OU: { fr: 'Ouest' },
    SU: { fr: 'Sud' },
    SW: { fr: 'Sud-Ouest' },
  },
  // Republic of the Congo: its departments, without the English "Department".
  CG: {
    2: { fr: 'Lékoumou' },
    5: { fr: 'Kouilou' },
    7: { fr: 'Likouala' },
    8: { fr: 'Cuvette' },
    9: { fr: 'Niari' },
    11: { fr: 'Bouenza' },
    12: { fr: 'Pool' },
    13: { fr: 'Sangha' },
    14: { fr: 'Plateaux' },
    15: { fr: 'Cuvette-Ouest' },
  },
  // Burundi: its provinces, without the English "Province".
  BI: {
    BB: { fr: 'Bubanza' },
    BL: { fr: 'Bujumbura Rural' },
    BM: { fr: 'Bujumbura Mairie' },
    BR: { fr: 'Bururi' },
    CA: { fr: 'Cankuzo' },
    CI: { fr: 'Cibitoke' },
    GI: { fr: 'Gitega' },
    KI: { fr: 'Kirundo' },
    KR: { fr: 'Karuzi' },
    KY: { fr: 'Kayanza' },
    MA: { fr: 'Makamba' },
    MU: { fr: 'Muramvya' },
    MW: { fr: 'Mwaro' },
    MY: { fr: 'Muyinga' },
    NG: { fr: 'Ngozi' },
    RM: { fr: 'Rumonge' },
    RT: { fr: 'Rutana' },
    RY: { fr: 'Ruyigi' },
  },
};

/** The name to show for a region of the data (`name` is the data's own, kept when no better one is known). */
export function regionLabel(country: string, region: { id: string; name: string }, lang: Lang): string {
  return REGION_NAMES[country.toUpperCase()]?.[region.id]?.[lang] ?? region.name;
}
