// Screening one name against an index (docs/rules/screening.md).
import { mostRaised, qualify } from './qualifiers.js';
import { deletions, type IndexedName, type ScreeningIndex } from './search-index.js';
import { compareWords, toWord, type TokenSimilarity, type Word } from './similarity.js';
import { prepareName } from './tokens.js';
import type { EntryKind, Match, ScreeningQuery, ScreenOptions, TokenMatch } from './types.js';

/** A score at or above this holds the transfer (the default of docs/rules/screening.md; the admin may change it). */
export const HOLD_THRESHOLD = 0.85;
/** What an unpaired middle word costs, as a share of its weight (a missing middle name is common). */
export const MIDDLE_WORD_SHARE = 0.2;
/**
 * …and when one name is the other shortened (every word of one side paired, the other side's
 * first and last words paired): then the longer side's unpaired middle words together cost at
 * most this share of the matched weight, so long chains of rare middle names do not drown a
 * matching first and last name.
 */
export const SHORTENED_MIDDLE_SHARE = 0.1;

interface PreparedQuery {
  words: Word[];
  /** Per query word: listed word id → how they meet. */
  meets: Map<number, TokenSimilarity>[];
  weights: number[];
  abjad: boolean;
  ignored: string[];
  kind: EntryKind;
}

function nearWords(index: ScreeningIndex, word: Word, abjad: boolean): Set<number> {
  const ids = new Set<number>();
  const add = (list: number[] | undefined) => list?.forEach((id) => ids.add(id));
  const found = (id: number) => ids.add(id);
  const exact = index.byText.get(word.text);
  if (exact !== undefined) ids.add(exact);
  if (word.text.length < 3) {
    if (abjad) add(index.byAbjadKey.get(word.abjad));
    return ids;
  }
  add(index.byLatinKey.get(word.latin));
  if (abjad) add(index.byAbjadKey.get(word.abjad));
  index.byDeletion.forEach(`w:${word.text}`, found);
  for (const d of deletions(word.text)) {
    index.byDeletion.forEach(`w:${d}`, found);
    const shorter = index.byText.get(d);
    if (shorter !== undefined) ids.add(shorter);
  }
  if (word.latin.length >= 3) {
    index.byDeletion.forEach(`k:${word.latin}`, found);
    for (const d of deletions(word.latin)) {
      index.byDeletion.forEach(`k:${d}`, found);
      add(index.byLatinKey.get(d));
    }
  }
  return ids;
}

/** A query word written with its article joined (alsomali) loses it when only the rest is listed. */
function withoutJoinedArticle(index: ScreeningIndex, token: string, ignored: string[]): string {
  const m = /^(al|el)(.{4,})$/.exec(token);
  if (!m || index.byText.has(token) || !index.byText.has(m[2]!)) return token;
  ignored.push(m[1]!);
  return m[2]!;
}

function prepareQuery(index: ScreeningIndex, query: ScreeningQuery): PreparedQuery {
  const prepared = prepareName(query.name);
  const words = prepared.tokens.map((t) => toWord(withoutJoinedArticle(index, t, prepared.ignored)));
  const meets = words.map((word) => {
    const found = new Map<number, TokenSimilarity>();
    for (const id of nearWords(index, word, prepared.abjad)) {
      const meet = compareWords(word, index.words[id]!, prepared.abjad);
      if (meet) found.set(id, meet);
    }
    return found;
  });
  // A word no list holds weighs most; a stray letter no more than an average word.
  const weights = words.map((w) => {
    const id = index.byText.get(w.text);
    if (id !== undefined) return index.weights[id]!;
    return w.text.length === 1 ? index.meanWeight : index.unseenWeight;
  });
  const kind = query.kind ?? (prepared.organisation ? 'organisation' : 'unknown');
  return { words, meets, weights, abjad: prepared.abjad, ignored: prepared.ignored, kind };
}

/** First and last words carry their whole weight when unpaired; middle ones and initials less. */
function unpairedShare(position: number, count: number, text: string): number {
  if (text.length === 1) return MIDDLE_WORD_SHARE;
  return count >= 3 && position > 0 && position < count - 1 ? MIDDLE_WORD_SHARE : 1;
}

interface NameScore {
  score: number;
  matched: TokenMatch[];
  unmatchedQuery: string[];
  unmatchedListed: string[];
}

/**
 * Pairs query and listed words in any order, best pairs first (similarity × rarity), each word
 * at most once; the score is the matched weight over the matched weight plus the unpaired words'.
 */
function scoreName(index: ScreeningIndex, q: PreparedQuery, name: IndexedName): NameScore {
  const pairs: { i: number; j: number; meet: TokenSimilarity; value: number }[] = [];
  q.words.forEach((word, i) => {
    name.tokens.forEach((id, j) => {
      const listed = index.words[id]!;
      const meet = q.meets[i]!.get(id) ?? (word.text.length === 1 || listed.text.length === 1 ? compareWords(word, listed, q.abjad) : null);
      if (meet) pairs.push({ i, j, meet, value: meet.similarity * index.weights[id]! });
    });
  });
  pairs.sort((a, b) => b.value - a.value);
  const usedQ = new Set<number>();
  const usedL = new Set<number>();
  const matched: TokenMatch[] = [];
  let gained = 0;
  let total = 0;
  let matchedWeight = 0;
  for (const p of pairs) {
    if (usedQ.has(p.i) || usedL.has(p.j)) continue;
    usedQ.add(p.i);
    usedL.add(p.j);
    const id = name.tokens[p.j]!;
    const weight = index.weights[id]!;
    gained += p.value;
    total += weight;
    matchedWeight += weight;
    matched.push({ query: q.words[p.i]!.text, listed: index.words[id]!.text, how: p.meet.how, ...(p.meet.distance !== undefined && { distance: p.meet.distance }), similarity: round(p.meet.similarity), weight: round(weight) });
  }
  // One name may be the other shortened: every word of one side paired, and the other side's
  // first and last words paired. Then that other side's unpaired middle words cost little.
  const qCount = q.words.length;
  const lCount = name.tokens.length;
  const listedShortened = usedQ.size === qCount && usedL.has(0) && usedL.has(lCount - 1);
  const queryShortened = usedL.size === lCount && usedQ.has(0) && usedQ.has(qCount - 1);
  const unmatchedQuery: string[] = [];
  let queryCost = 0;
  q.words.forEach((word, i) => {
    if (usedQ.has(i)) return;
    unmatchedQuery.push(word.text);
    queryCost += q.weights[i]! * (queryShortened ? SHORTENED_MIDDLE_SHARE : unpairedShare(i, qCount, word.text));
  });
  const unmatchedListed: string[] = [];
  let listedCost = 0;
  name.tokens.forEach((id, j) => {
    if (usedL.has(j)) return;
    const text = index.words[id]!.text;
    unmatchedListed.push(text);
    listedCost += index.weights[id]! * (listedShortened ? SHORTENED_MIDDLE_SHARE : unpairedShare(j, lCount, text));
  });
  total += queryShortened ? Math.min(queryCost, SHORTENED_MIDDLE_SHARE * matchedWeight) : queryCost;
  total += listedShortened ? Math.min(listedCost, SHORTENED_MIDDLE_SHARE * matchedWeight) : listedCost;
  return { score: total > 0 ? gained / total : 0, matched, unmatchedQuery, unmatchedListed };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/**
 * The listed entries whose names (primary or alias) score at least the threshold against the
 * query, best first, one match per entry with the explanation of its best name.
 */
export function screen(index: ScreeningIndex, query: ScreeningQuery, options: ScreenOptions = {}): Match[] {
  const limit = options.limit ?? 10;
  const threshold = options.threshold ?? 0.5;
  const q = prepareQuery(index, query);
  if (q.words.length === 0) return [];

  // Gather, per name, the most weight the query could match there and which query words met it.
  const acc = index.scratch;
  const met = index.scratchWords;
  const touched: number[] = [];
  q.meets.forEach((meets, i) => {
    const bit = 1 << Math.min(i, 31);
    for (const [id, meet] of meets) {
      const gain = meet.similarity * index.weights[id]!;
      for (const n of index.postings[id]!) {
        if (acc[n] === 0) touched.push(n);
        acc[n]! += gain;
        met[n]! |= bit;
      }
    }
  });
  // Query words that met nothing in a name stay unpaired there: their cost is certain (initials
  // are paired later, so they cost nothing here).
  const unpairedCost = q.words.map((w, i) => (w.text.length === 1 ? 0 : q.weights[i]! * unpairedShare(i, q.words.length, w.text)));
  const firstLast = (1 << 0) | (1 << Math.min(q.words.length - 1, 30));
  const candidates: { n: number; bound: number }[] = [];
  for (const n of touched) {
    const name = index.names[n]!;
    const gained = Math.min(acc[n]!, name.weight);
    // The least the unpaired listed words can cost (scoreName); the bound grows with `gained`.
    let cost = SHORTENED_MIDDLE_SHARE * Math.min(name.weight - gained, gained);
    // Unpaired middle query words may be cheap (a shortened listed name) when first and last met.
    if ((met[n]! & firstLast) !== firstLast) {
      for (let i = 0; i < unpairedCost.length && i < 31; i++) if (!(met[n]! & (1 << i))) cost += unpairedCost[i]!;
    }
    acc[n] = 0;
    met[n] = 0;
    const bound = mostRaised(gained / (gained + cost), query);
    if (bound >= threshold) candidates.push({ n, bound });
  }
  candidates.sort((a, b) => b.bound - a.bound);

  const best = new Map<number, Match>();
  // Best scores so far, one per entry, highest first: once `limit` entries beat a name's bound, stop.
  const kept: number[] = [];
  for (const { n, bound } of candidates) {
    if (kept.length >= limit && bound < kept[limit - 1]!) break;
    const name = index.names[n]!;
    const entry = index.entries[name.entry]!;
    const named = scoreName(index, q, name);
    const { score, effects } = qualify(named.score, query, q.kind, entry);
    if (score < threshold) continue;
    const previous = best.get(name.entry);
    if (previous && previous.score >= score) continue;
    best.set(name.entry, {
      score: round(score),
      entry,
      explanation: {
        listed_name: name.text,
        matched: named.matched,
        unmatched_query: named.unmatchedQuery,
        unmatched_listed: named.unmatchedListed,
        ignored: [...q.ignored, ...name.ignored],
        name_score: round(named.score),
        qualifiers: effects.map((e) => ({ ...e, before: round(e.before), after: round(e.after) })),
      },
    });
    if (previous) kept.splice(kept.indexOf(previous.score), 1);
    kept.push(round(score));
    kept.sort((a, b) => b - a);
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
