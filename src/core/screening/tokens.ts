// From a name to the words the matcher pairs (docs/rules/screening.md#tokens).
import { normaliseName } from './normalise.js';
import { isAbjad } from './transliterate.js';
import { COMPANY_WORDS, HONORIFICS, PARTICLES } from './words.js';

/**
 * The longest name and word the matcher reads (docs/rules/screening.md#tokens): no listed or
 * screened name comes near them, and past them the index's work per word (its one-letter
 * deletions) would grow with the square of a crafted word's length. Longer ones are cut.
 */
export const MAX_NAME_CHARS = 500;
export const MAX_WORD_CHARS = 40;

export interface PreparedName {
  /** Words that count, in written order. */
  tokens: string[];
  /** Company words, honorifics and particles found and set aside. */
  ignored: string[];
  /** A company word was written: the name is an organisation's. */
  organisation: boolean;
  /** Written in Arabic script: no short vowels, compared by consonants. */
  abjad: boolean;
}

// Abd al-Rahman, Abdul Rahman, Abdulrahman, Abdelaziz, Abderrahmane: one "abd" word and the rest.
const ABD_ALONE = new Set(['abd', 'abdu', 'abdul', 'abdel', 'abdal', 'abdoul', 'abdou', 'abdol']);

function splitAbd(word: string): string[] {
  if (ABD_ALONE.has(word)) return ['abd'];
  if (!word.startsWith('abd') || word.length < 6) return [word];
  let rest = word.slice(3);
  const article = /^(?:ou|u|o|e|a|i)?l(?=.)/.exec(rest);
  const sun = /^(?:ou|u|o|e|a|i)(?=([^aeiou])\1)/.exec(rest);
  const vowel = /^(?:ou|u|o|i)(?=[^aeiou])/.exec(rest);
  rest = rest.slice((article ?? sun ?? vowel)?.[0].length ?? 0);
  // The article's l assimilates to a doubled sun letter: abd er-rahman.
  if (rest[0] === rest[1]) rest = rest.slice(1);
  return rest.length >= 2 ? ['abd', rest] : [word];
}

/**
 * Normalises, splits into words and sets aside the words that do not count. Particles are
 * kept when nothing else is left (a name such as "De La" stays matchable); al- joined to a
 * word (alqaida) is split off like the written al-.
 */
export function prepareName(raw: string): PreparedName {
  const name = raw.length > MAX_NAME_CHARS ? raw.slice(0, MAX_NAME_CHARS) : raw;
  const abjad = isAbjad(name);
  const words = joinLetterRuns(normaliseName(name).split(' ').filter(Boolean).map((w) => w.slice(0, MAX_WORD_CHARS)));
  const tokens: string[] = [];
  const ignored: string[] = [];
  let organisation = false;
  for (const word of words) {
    if (COMPANY_WORDS.has(word)) {
      organisation = true;
      ignored.push(word);
    } else if ((HONORIFICS.has(word) && !(abjad && word.length <= 2)) || PARTICLES.has(word)) {
      // Arabic script transliterates عمر as "mr": not Mister.
      ignored.push(word);
    } else {
      tokens.push(...splitAbd(word.replace(/ah$/, 'a')));
    }
  }
  if (tokens.length === 0) return { tokens: words, ignored: [], organisation, abjad };
  return { tokens, ignored, organisation, abjad };
}

/** Dotted abbreviations (S.A., L.L.C., F.Z.E.) come out as runs of letters: joined, they are company words. */
function joinLetterRuns(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    let j = i;
    while (j < words.length && words[j]!.length === 1) j++;
    const run = words.slice(i, j).join('');
    if (j - i >= 2 && COMPANY_WORDS.has(run)) {
      out.push(run);
      i = j - 1;
    } else out.push(words[i]!);
  }
  return out;
}
