// Search in what people read (the FAQ): case, accents and word endings aside, in English and
// French, so "remboursement" finds "remboursé" and "refunds" finds "refund".

/** Lower-case, accents and ligatures undone: "Sécurité" → "securite", "œuvre" → "oeuvre". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/œ/g, 'oe').replace(/æ/g, 'ae');
}

// Endings of both languages, longest first: plurals, verb forms, -ment/-ation nouns.
const ENDINGS = [
  'issements', 'issement', 'ements', 'ement', 'ations', 'ation', 'ments', 'ment', 'ances', 'ance', 'ences', 'ence',
  'ings', 'ing', 'eurs', 'eur', 'ies', 'ees', 'ers', 'ed', 'er', 'es', 'ee', 'ez', 's', 'x', 'e', 'y',
];

/** A folded word without its endings, never shorter than 3 letters: "remboursement", "remboursés" → "rembour". */
export function stem(word: string): string {
  let current = word;
  for (;;) {
    const ending = ENDINGS.find((e) => current.endsWith(e) && current.length - e.length >= 3);
    // "cancelled" → "cancell" → "cancel", like "cancel".
    const next = ending ? current.slice(0, -ending.length).replace(/([^aeiou])\1$/, '$1') : current;
    if (next === current) return current;
    current = next;
  }
}

const words = (text: string) => fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * A test of texts against what was typed: each word typed starts a word of the text, as typed
 * (while typing: "rembourseme") or as stems ("refunds" finds "refunded"). Nothing typed matches all.
 */
export function textMatcher(query: string): (text: string) => boolean {
  const terms = words(query).map((w) => [w, stem(w)] as const);
  return (text) => {
    const found = words(text).flatMap((w) => [w, stem(w)]);
    return terms.every(([word, root]) => found.some((f) => f.startsWith(word) || f.startsWith(root)));
  };
}
