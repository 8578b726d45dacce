// Text normalisation before tokenising (docs/rules/screening.md#normalisation).
import { transliterate } from './transliterate.js';

// Latin letters that Unicode decomposition leaves whole.
const LETTERS: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŋ: 'ng',
};

/**
 * Lower case, Latin letters only, words separated by one space: accents and diacritics dropped,
 * other scripts transliterated, apostrophes joined (O'Brien → obrien), hyphens and other
 * punctuation made spaces. "LAST, First" (the lists' order) becomes "first last".
 */
export function normaliseName(raw: string): string {
  let text = raw;
  const comma = text.split(',');
  if (comma.length === 2 && comma[0]!.trim() && comma[1]!.trim()) text = `${comma[1]} ${comma[0]}`;
  text = transliterate(text.toLowerCase())
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\u064b-\u065f\u0670]/g, '')
    .replace(/[ßæœøłđðþıħŋ]/g, (c) => LETTERS[c] ?? c)
    .replace(/['’‘`ʼʻ´]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return text;
}
