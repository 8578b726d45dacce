// The index built once per list version (docs/rules/screening.md#speed): every listed name's
// words, how rare each word is, and the keys that find a query word's near spellings without
// scanning every name.
import { HashedKeys } from './hashed-keys.js';
import { toWord, type Word } from './similarity.js';
import { prepareName } from './tokens.js';
import type { ListedEntry } from './types.js';

export interface IndexedName {
  entry: number;
  text: string;
  /** Word ids, in written order. */
  tokens: number[];
  ignored: string[];
  /** Rarity weights of its words, summed: the most a query can match. */
  weight: number;
}

export interface ScreeningIndex {
  entries: ListedEntry[];
  names: IndexedName[];
  words: Word[];
  /** Per word: ln((names + 1) / (names holding it + 0.5)). */
  weights: Float64Array;
  /** Per word: the names holding it. */
  postings: Int32Array[];
  byText: Map<string, number>;
  byLatinKey: Map<string, number[]>;
  byAbjadKey: Map<string, number[]>;
  /** A word or its latin key with one letter deleted (prefixed w: or k:) → words. */
  byDeletion: HashedKeys;
  /** The weight of a word no listed name holds, and the average word's. */
  unseenWeight: number;
  meanWeight: number;
  /** Work space for screen(): per name, the weight matched so far. */
  scratch: Float64Array;
  /** Work space for screen(): per name, which query words met it (one bit each). */
  scratchWords: Uint32Array;
}

function push(map: Map<string, number[]>, key: string, id: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [id]);
  else if (list[list.length - 1] !== id) list.push(id);
}

/** Each string with one letter left out. */
export function deletions(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) out.push(s.slice(0, i) + s.slice(i + 1));
  return out;
}

/** Names (or words) handled between two pauses of a yielding build. */
const STEP = 500;

/**
 * The index's build, step by step: it yields after every STEP names or words so that a server
 * can answer between steps (a list of 100,000 entries takes seconds). Time and memory grow
 * linearly with the names: each word is at most MAX_WORD_CHARS letters, so its deletions are
 * bounded too.
 */
export function* indexSteps(entries: ListedEntry[]): Generator<void, ScreeningIndex> {
  const byText = new Map<string, number>();
  const words: Word[] = [];
  const holders: number[][] = [];
  const names: IndexedName[] = [];
  for (let e = 0; e < entries.length; e++) {
    const entry = entries[e]!;
    const seen = new Set<string>();
    for (const text of entry.names) {
      const prepared = prepareName(text);
      const key = prepared.tokens.join(' ');
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const n = names.length;
      const tokens = prepared.tokens.map((t) => {
        let id = byText.get(t);
        if (id === undefined) {
          id = words.length;
          byText.set(t, id);
          words.push(toWord(t));
          holders.push([]);
        }
        const h = holders[id]!;
        if (h[h.length - 1] !== n) h.push(n);
        return id;
      });
      names.push({ entry: e, text, tokens, ignored: prepared.ignored, weight: 0 });
      if (names.length % STEP === 0) yield;
    }
  }
  const weights = new Float64Array(words.length);
  holders.forEach((h, id) => (weights[id] = Math.log((names.length + 1) / (h.length + 0.5))));
  for (const name of names) name.weight = name.tokens.reduce((sum, id) => sum + weights[id]!, 0);
  const byLatinKey = new Map<string, number[]>();
  const byAbjadKey = new Map<string, number[]>();
  let deletionKeys = 0;
  for (const word of words) if (word.text.length >= 3) deletionKeys += word.text.length + (word.latin.length >= 3 ? word.latin.length : 0);
  const byDeletion = new HashedKeys(deletionKeys);
  for (let id = 0; id < words.length; id++) {
    const word = words[id]!;
    if (id % STEP === 0) yield;
    push(byAbjadKey, word.abjad, id);
    if (word.text.length < 3) continue;
    push(byLatinKey, word.latin, id);
    for (const d of deletions(word.text)) byDeletion.add(`w:${d}`, id);
    if (word.latin.length >= 3) for (const d of deletions(word.latin)) byDeletion.add(`k:${d}`, id);
  }
  return {
    entries,
    names,
    words,
    weights,
    postings: holders.map((h) => Int32Array.from(h)),
    byText,
    byLatinKey,
    byAbjadKey,
    byDeletion,
    unseenWeight: Math.log((names.length + 1) / 0.5),
    meanWeight: weights.reduce((a, b) => a + b, 0) / Math.max(1, weights.length),
    scratch: new Float64Array(names.length),
    scratchWords: new Uint32Array(names.length),
  };
}

/** The index built at once (tests, benchmarks, a small list). */
export function buildIndex(entries: ListedEntry[]): ScreeningIndex {
  const steps = indexSteps(entries);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

