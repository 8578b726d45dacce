// The variant layer (docs/rules/screening.md#variants): a key that spellings of one name share,
// so Mohammed, Muhammad and Mohamed, or Yevgeny, Evgeniy and Евгений, meet without a table.

// Digraphs first: transliteration systems write one sound several ways.
const SOUNDS: [RegExp, string][] = [
  [/^(?:ye|ie|je)/, 'e'], // Yevgeny, Ievgen, Jewgeni
  [/^(?:yu|iu|ju|yo)/, 'u'], // Yuri, Iouri, Juri
  [/^(?:ya|ia|ja)/, 'a'], // Yakov, Iakov, Jakow
  [/ou/g, 'u'], // Oussama, Mouammar
  [/shch|sch|sh/g, 'S'],
  [/tsch|tch|ch/g, 'C'],
  [/dzh|dj|zh|j/g, 'J'], // Dzhokhar, Djokhar, Jokhar
  [/kh/g, 'h'],
  [/gh/g, 'g'], // before g joins k below
  [/dh/g, 'd'],
  [/th/g, 't'],
  [/ph/g, 'f'],
  [/ck|q|g|c(?=[aou]|$)|c(?=[^eiy])/g, 'k'], // Arabic ق is written q, k or g: Qadhafi, Kadhafi, Gaddafi
  [/x/g, 'ks'],
  [/w/g, 'v'],
  [/([aeiouy])h$/, '$1'], // Abdullah, Fatimah
  [/([^aeiouy])e$/, '$1'], // French spellings' silent e: Yassine, Slimane, Abderrahmane
];

/** The word with its sounds unified (the key before vowels are dropped). */
export function sounds(token: string): string {
  let s = token;
  for (const [from, to] of SOUNDS) s = s.replace(from, to);
  return s;
}

function squeeze(s: string): string {
  let out = '';
  for (const ch of s) if (out[out.length - 1] !== ch) out += ch;
  return out;
}

/**
 * Latin spellings: sounds unified, each run of vowels one mark (which vowel varies between
 * spellings, how many syllables does not), doubles squeezed.
 */
export function latinKey(token: string): string {
  return squeeze(sounds(token).replace(/[aeiouy]+/g, '*'));
}

/**
 * Against Arabic script, which writes no short vowels and uses one letter for w/u and y/i: the
 * consonants alone (Muhammad and محمد both give mhmd, Umar and عمر give mr).
 */
export function abjadKey(token: string): string {
  return squeeze(sounds(token).replace(/h$/, '').replace(/[aeiouyv]/g, ''));
}
