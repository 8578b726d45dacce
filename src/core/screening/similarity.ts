// How close two words are (docs/rules/screening.md#fuzz-budget).
import { abjadKey, latinKey, sounds } from './phonetic.js';
import type { TokenMatchKind } from './types.js';

/** Edits allowed by the shorter word's length: none on 1-2 letters. */
export function fuzzBudget(length: number): number {
  if (length <= 2) return 0;
  if (length <= 8) return 1;
  if (length <= 12) return 2;
  return 3;
}

export const VARIANT_SIMILARITY = 0.95;
const VARIANT_EDIT_COST = 0.5;
export const INITIAL_SIMILARITY = 0.85;
/** What each edit costs, as a share of the longer word. */
const EDIT_COST = 0.6;

/**
 * Optimal-string-alignment distance (an adjacent swap is one edit), or max + 1 as soon as the
 * distance is sure to exceed max.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

export interface TokenSimilarity {
  similarity: number;
  how: TokenMatchKind;
  distance?: number;
}

/** A word with its phonetic keys, computed once (the index keeps them for every listed word). */
export interface Word {
  text: string;
  sound: string;
  latin: string;
  abjad: string;
}

export function toWord(text: string): Word {
  return { text, sound: sounds(text), latin: latinKey(text), abjad: abjadKey(text) };
}

/**
 * Exact; an initial (one letter against a word it starts); a variant (same phonetic key, the
 * consonant key when either side was written in Arabic script); or fuzzy within the budget.
 * Null when the words do not meet.
 */
export function compareWords(query: Word, listed: Word, abjad: boolean): TokenSimilarity | null {
  const q = query.text;
  const l = listed.text;
  if (q === l) return { similarity: 1, how: 'exact' };
  const shorter = Math.min(q.length, l.length);
  if (shorter === 1) return q[0] === l[0] ? { similarity: INITIAL_SIMILARITY, how: 'initial' } : null;
  // Arabic script leaves short words (عمر → mr, الله → lh): their consonants still name a variant.
  if (abjad && query.abjad.length >= 1 && query.abjad === listed.abjad) return { similarity: VARIANT_SIMILARITY, how: 'variant' };
  if (shorter <= 2) return null;
  const longer = Math.max(q.length, l.length);
  const budget = fuzzBudget(shorter);
  const distance = editDistance(q, l, Math.max(budget, Math.floor(longer / 2)));
  const fuzzy = distance <= budget ? 1 - (EDIT_COST * distance) / longer : 0;
  // A variant still pays for its edits once sounds are unified (zh and j are one sound, not two
  // edits), at a lower rate than a typo and beyond the budget.
  let variant = 0;
  let soundEdits = 0;
  if (query.latin === listed.latin) {
    const soundLonger = Math.max(query.sound.length, listed.sound.length);
    soundEdits = editDistance(query.sound, listed.sound, Math.floor(soundLonger / 2));
    if (soundEdits <= Math.floor(soundLonger / 2)) variant = VARIANT_SIMILARITY - (VARIANT_EDIT_COST * soundEdits) / soundLonger;
  }
  if (variant > fuzzy) return { similarity: variant, how: 'variant', distance: soundEdits };
  if (fuzzy > 0) return { similarity: fuzzy, how: 'fuzzy', distance };
  return null;
}
