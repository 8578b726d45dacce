// Latin transliteration of Cyrillic, Greek and Arabic letters (docs/rules/screening.md#transliteration).
// One simple table a script: the variant layer (phonetic.ts) absorbs the differences between
// transliteration systems (Yevgeniy / Evgeny / Jewgeni), so no system needs to be chosen here.

const CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k',
  л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts',
  ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
  // Ukrainian, Belarusian, Serbian, Macedonian, Kazakh letters
  і: 'i', ї: 'yi', є: 'ye', ґ: 'g', ў: 'u', ј: 'j', љ: 'lj', њ: 'nj', ћ: 'c', ђ: 'dj', џ: 'dz',
  ѓ: 'gj', ќ: 'kj', ѕ: 'dz', ә: 'a', ғ: 'gh', қ: 'q', ң: 'ng', ө: 'o', ұ: 'u', ү: 'u', һ: 'h',
};

const GREEK: Record<string, string> = {
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm',
  ν: 'n', ξ: 'x', ο: 'o', π: 'p', ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps',
  ω: 'o', ά: 'a', έ: 'e', ή: 'i', ί: 'i', ό: 'o', ύ: 'y', ώ: 'o', ϊ: 'i', ΐ: 'i', ϋ: 'y', ΰ: 'y',
};
// Greek writes u as ου.
const GREEK_OU = /ο[υύ]/g;

// Arabic script writes no short vowels: long vowels become a/u/i, and the matcher compares
// such words by their consonants (phonetic.ts). Persian and Urdu letters are included.
const ARABIC: Record<string, string> = {
  ا: 'a', أ: 'a', إ: 'i', آ: 'a', ٱ: 'a', ب: 'b', ت: 't', ث: 'th', ج: 'j', ح: 'h', خ: 'kh', د: 'd',
  ذ: 'dh', ر: 'r', ز: 'z', س: 's', ش: 'sh', ص: 's', ض: 'd', ط: 't', ظ: 'z', ع: '', غ: 'gh', ف: 'f',
  ق: 'q', ك: 'k', ل: 'l', م: 'm', ن: 'n', ه: 'h', ة: 'a', و: 'u', ي: 'i', ى: 'a', ء: '', ئ: '',
  ؤ: '', پ: 'p', چ: 'ch', ژ: 'zh', گ: 'g', ک: 'k', ی: 'i', ے: 'e', ٹ: 't', ڈ: 'd', ڑ: 'r', ں: 'n',
  ھ: 'h', ۃ: 'a',
};

const ARABIC_LETTER = /[\u0600-\u06ff]/;

/** True when the text holds Arabic-script letters (its words then carry no short vowels). */
export function isAbjad(text: string): boolean {
  return ARABIC_LETTER.test(text);
}

/**
 * Latin letters for a lower-cased text; other characters pass through. Arabic words starting
 * with the article ال are written al-… so the particle rule sees the article.
 */
export function transliterate(text: string): string {
  const lower = text.replace(GREEK_OU, 'ou');
  let out = '';
  let wordStart = true;
  for (let i = 0; i < lower.length; i++) {
    const ch = lower[i]!;
    if (wordStart && ch === 'ا' && lower[i + 1] === 'ل' && ARABIC_LETTER.test(lower[i + 2] ?? '')) {
      out += 'al-';
      i++;
      continue;
    }
    const latin = CYRILLIC[ch] ?? GREEK[ch] ?? ARABIC[ch];
    out += latin ?? ch;
    wordStart = /\s/.test(ch);
  }
  return out;
}
