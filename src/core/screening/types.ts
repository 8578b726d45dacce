// The matcher's vocabulary (docs/rules/screening.md), shared by the list parsers, the server's
// screening service and the staff search screen.

export type EntryKind = 'person' | 'organisation' | 'vessel' | 'unknown';

/** One entry of a sanctions list, as a parser hands it over: the first name is the primary one. */
export interface ListedEntry {
  source: string;
  list_id: string;
  names: string[];
  kind: EntryKind;
  /** `YYYY-MM-DD`, `YYYY-MM` or `YYYY`. */
  birth_dates?: string[];
  /** ISO 3166-1 alpha-2 codes (nationalities, citizenship, addresses). */
  countries?: string[];
  programmes?: string[];
}

export interface ScreeningQuery {
  name: string;
  /** `YYYY-MM-DD` (a sender's) or absent (a recipient's). */
  birth_date?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  kind?: EntryKind;
}

export interface ScreenOptions {
  /** Most matches answered, best first (default 10). */
  limit?: number;
  /** Lowest score answered (default 0.5). The hold threshold is HOLD_THRESHOLD. */
  threshold?: number;
}

/** How one query word met one listed word. */
export type TokenMatchKind = 'exact' | 'variant' | 'fuzzy' | 'initial';

export interface TokenMatch {
  query: string;
  listed: string;
  how: TokenMatchKind;
  /** Edits between the two spellings (fuzzy only). */
  distance?: number;
  similarity: number;
  /** The listed word's rarity weight. */
  weight: number;
}

/** What one qualifier found and did (docs/rules/screening.md#explanation). */
export interface QualifierEffect {
  qualifier: 'birth_date' | 'country' | 'kind';
  /** The two values agree, disagree, or one side (or both) has none. */
  outcome: 'matches' | 'differs' | 'unknown';
  /** What it did to the score: read from the score before and after, to 4 decimals. */
  effect: 'raised' | 'lowered' | 'none';
  /** The query's value, null when it has none. */
  query: string | null;
  /** The listed value compared (the best one), all of them when none agreed, null when the entry has none. */
  listed: string | null;
  /** The score before and after this qualifier. */
  before: number;
  after: number;
}

export interface Explanation {
  /** The listed name (primary or alias) that matched best. */
  listed_name: string;
  matched: TokenMatch[];
  /** Query words and listed words left unpaired. */
  unmatched_query: string[];
  unmatched_listed: string[];
  /** Words that neither match nor count: company words, honorifics, particles. */
  ignored: string[];
  /** The score from the names alone, before qualifiers. */
  name_score: number;
  qualifiers: QualifierEffect[];
}

export interface Match {
  score: number;
  entry: ListedEntry;
  explanation: Explanation;
}
