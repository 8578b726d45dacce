// Words that neither match nor count (docs/rules/screening.md#words-that-do-not-count), written
// as normaliseName leaves them (lower case, no dots).

/** Legal forms and generic company words: they say "an organisation", not which one. */
export const COMPANY_WORDS = new Set([
  'llc', 'ltd', 'limited', 'liability', 'corp', 'corporation', 'inc', 'incorporated', 'co', 'company',
  'plc', 'llp', 'lp', 'sa', 'sarl', 'sas', 'sasu', 'sae', 'spa', 'srl', 'gmbh', 'ag', 'kg', 'bv', 'nv',
  'oy', 'ab', 'aps', 'pte', 'pvt', 'pty', 'bhd', 'sdn', 'fze', 'fzco', 'fzc', 'fz', 'jsc', 'pjsc',
  'ojsc', 'cjsc', 'ooo', 'oao', 'zao', 'pao', 'ao', 'tov', 'kk', 'est', 'establishment', 'group',
  'holding', 'holdings', 'enterprise', 'enterprises', 'international', 'intl', 'trading',
  'sociedad', 'anonima', 'joint', 'stock', 'societe', 'anonyme', 'cv', 'ltda', 'eirl',
]);

/** Titles and honorifics before a person's name. */
export const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'mme', 'mlle', 'dr', 'prof', 'professor', 'sir', 'dame', 'lord',
  'sheikh', 'shaikh', 'sheik', 'shaykh', 'cheikh', 'hajji', 'haji', 'hajj', 'hadj',
  'mullah', 'mulla', 'maulana', 'mawlana', 'imam', 'sayyid', 'sayed', 'syed',
  'general', 'gen', 'colonel', 'col', 'major', 'maj', 'captain', 'capt', 'lieutenant', 'lt', 'sgt',
  'president', 'minister', 'ambassador', 'hon', 'honorable', 'rev', 'reverend', 'father', 'pastor',
  'monsieur', 'madame', 'mademoiselle', 'herr', 'frau', 'senor', 'sr', 'sra', 'jr',
]);

/** Name particles: articles and "son of" words that many spellings add or leave out. */
export const PARTICLES = new Set([
  'al', 'el', 'ul', 'as', 'ash', 'ad', 'ar', 'at', 'az', 'an', 'bin', 'ibn', 'bn', 'bint', 'ben', 'ould', 'de', 'del', 'della', 'di', 'da', 'do',
  'dos', 'das', 'du', 'des', 'la', 'le', 'van', 'von', 'der', 'den', 'ter', 'zu', 'y', 'e', 'the', 'and', 'of',
]);
