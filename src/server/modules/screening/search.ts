import type { ListSourceId, ScreeningMatch, ScreeningSearch } from '@core/api/screening.js';
import { HOLD_THRESHOLD, screen } from '@core/screening/index.js';
import { prepareName } from '@core/screening/tokens.js';
import type { Db } from '@server/db/client.js';
import { screeningIndex } from './index-cache.js';

// The search staff use to check a name by hand (docs/rules/screening.md): the best matches of
// the current lists, each with its explanation.

const SEARCH_LIMIT = 10;
/**
 * A word typed alone (a surname) scores about half against a listed name of two words, under
 * screening's 0.5 floor: searched by hand, it lists the names holding it, best first.
 */
const ONE_WORD_FLOOR = 0;

export async function searchLists(db: Db, query: ScreeningSearch): Promise<{ screening_active: boolean; hold_threshold: number; matches: ScreeningMatch[] }> {
  const loaded = await screeningIndex(db).current();
  if (!loaded) return { screening_active: false, hold_threshold: HOLD_THRESHOLD, matches: [] };
  const matches = screen(loaded.index, {
    name: query.name, ...(query.birth_date ? { birth_date: query.birth_date } : {}), ...(query.country ? { country: query.country } : {}),
  }, { limit: SEARCH_LIMIT, ...(prepareName(query.name).tokens.length === 1 ? { threshold: ONE_WORD_FLOOR } : {}) });
  return {
    screening_active: true,
    hold_threshold: HOLD_THRESHOLD,
    matches: matches.map(({ score, entry, explanation }) => {
      const [name = '', ...aliases] = entry.names;
      return {
        score, source: entry.source as ListSourceId, version_id: loaded.versionOf.get(entry.source)!, list_id: entry.list_id, kind: entry.kind,
        name, aliases, birth_dates: entry.birth_dates ?? [], countries: entry.countries ?? [], programmes: entry.programmes ?? [], explanation,
      };
    }),
  };
}
