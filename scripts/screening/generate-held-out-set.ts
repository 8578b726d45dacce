// Writes the matcher's held-out set (src/core/screening/testdata/held-out/*.json,
// docs/rules/screening.md#the-labelled-sets), made by another method than the tuning set: names
// written in their own script (Cyrillic, Arabic sounds, pinyin, Korean syllables), listed in the
// romanisation the lists use, and variants from the other published tables (ISO 9, ICAO 9303,
// German and French transcription, DIN 31635, Wade-Giles, Revised Romanization), typing errors
// on a QWERTY keyboard and the ways names are shortened or run together. It reads no matcher
// code: the point is to measure the matcher, never to tune it.
// Also writes ordinary names made of the lists' own words, combined as no listed person is.
// Deterministic: `npx tsx scripts/screening/generate-held-out-set.ts` rewrites the same files.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from './seeded-random.js';

const TESTDATA = path.join(path.dirname(new URL(import.meta.url).pathname), '../../src/core/screening/testdata');
const OUT = path.join(TESTDATA, 'held-out');

const { random, pick } = seededRandom(31_415);

interface Entry { source: string; list_id: string; names: string[]; kind: 'person' | 'organisation'; birth_dates?: string[]; countries: string[]; programmes: string[] }
interface Variant { query: string; list_id: string; variant: string }
/** A person as the lists write them: given names (particles included), then the family name. */
interface Listed { given: string[]; family: string[] }

const entries: Entry[] = [];
const variants: Variant[] = [];
const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
const shuffled = <T>(xs: T[]) => xs.map((x) => [random(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);

// --- Cyrillic: BGN/PCGN (as the lists print it), ISO 9, ICAO 9303, German (Duden), French.
const VOWELS_CY = 'аеёиоуыэюя';
const SOFTENING = `${VOWELS_CY}ьъй`;
const CY_COMMON: Record<string, string> = { а: 'a', б: 'b', д: 'd', з: 'z', и: 'i', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', ф: 'f', ъ: '', ь: '', у: 'u', в: 'v', г: 'g', ы: 'y', э: 'e' };
interface CyrillicTable {
  name: string;
  letters: Record<string, string>;
  /** е, ё after a vowel or a sign (and first in a word unless notFirst). */
  iotated?: Record<string, string>;
  notFirst?: boolean;
  /** ё after ж, ч, ш, щ. */
  afterHushing?: string;
  endings?: [RegExp, string][];
  /** г written gu before e and i, as French reads g there. */
  softG?: boolean;
  /** с written ss between vowels, where one s would be read z. */
  doubleS?: boolean;
}
const CYRILLIC: Record<'bgn' | 'iso9' | 'icao' | 'german' | 'french', CyrillicTable> = {
  bgn: { name: 'BGN/PCGN', letters: { е: 'e', ё: 'e', ж: 'zh', й: 'y', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ю: 'yu', я: 'ya' }, iotated: { е: 'ye', ё: 'ye' } },
  iso9: { name: 'ISO 9', letters: { е: 'e', ё: 'ë', ж: 'ž', й: 'j', х: 'h', ц: 'c', ч: 'č', ш: 'š', щ: 'ŝ', ъ: 'ʺ', ь: 'ʹ', э: 'è', ю: 'û', я: 'â' } },
  icao: { name: 'ICAO 9303', letters: { е: 'e', ё: 'e', ж: 'zh', й: 'i', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: 'ie', ю: 'iu', я: 'ia' } },
  german: {
    name: 'German', letters: { в: 'w', е: 'e', ё: 'jo', ж: 'sch', з: 's', й: 'i', х: 'ch', ц: 'z', ч: 'tsch', ш: 'sch', щ: 'schtsch', ю: 'ju', я: 'ja' },
    iotated: { е: 'je' }, afterHushing: 'o', endings: [[/ий$/, 'i'], [/ый$/, 'y']], doubleS: true,
  },
  french: {
    name: 'French', letters: { е: 'e', ё: 'io', ж: 'j', й: 'ï', у: 'ou', х: 'kh', ц: 'ts', ч: 'tch', ш: 'ch', щ: 'chtch', ю: 'iou', я: 'ia' },
    iotated: { е: 'ie' }, notFirst: true, afterHushing: 'e', endings: [[/ий$/, 'i'], [/ин$/, 'ine']], softG: true, doubleS: true,
  },
};
function romaniseCyrillic(word: string, table: CyrillicTable): string {
  let w = word.toLowerCase();
  let tail = '';
  for (const [end, latin] of table.endings ?? []) if (end.test(w)) { w = w.replace(end, ''); tail = latin; break; }
  let out = '';
  for (let i = 0; i < w.length; i++) {
    const c = w[i]!;
    const prev = w[i - 1];
    const next = w[i + 1] ?? '';
    const iotated = prev === undefined ? !table.notFirst : SOFTENING.includes(prev);
    if (iotated && table.iotated?.[c]) out += table.iotated[c];
    else if (c === 'ё' && table.afterHushing && prev && 'жчшщ'.includes(prev)) out += table.afterHushing;
    else if (c === 'г' && table.softG && 'еиыэ'.includes(next)) out += 'gu';
    else if (c === 'с' && table.doubleS && prev && VOWELS_CY.includes(prev) && next && VOWELS_CY.includes(next)) out += 'ss';
    else out += table.letters[c] ?? CY_COMMON[c] ?? c;
  }
  return cap(out + tail);
}
// Serbian letters, read as Russian writes them, for the Russian-based tables.
const SERBIAN_AS_RUSSIAN: [RegExp, string][] = [[/ји/g, 'и'], [/ј/g, 'й'], [/љ/g, 'ль'], [/њ/g, 'нь'], [/ћ/g, 'ч'], [/ђ/g, 'дж'], [/џ/g, 'дж']];
const SERBIAN_LATIN: Record<string, string> = { ђ: 'đ', ж: 'ž', ј: 'j', љ: 'lj', њ: 'nj', ћ: 'ć', ц: 'c', ч: 'č', џ: 'dž', ш: 'š', х: 'h', в: 'v', е: 'e', у: 'u' };
const serbianLatin = (word: string) => cap([...word.toLowerCase()].map((c) => SERBIAN_LATIN[c] ?? CY_COMMON[c] ?? c).join(''));
const asciiSerbian = (latin: string) => latin.replace(/đ/g, 'dj').replace(/Đ/g, 'Dj').normalize('NFD').replace(/\p{M}/gu, '');

const RU_GIVEN = ['Евгений', 'Дмитрий', 'Сергей', 'Александр', 'Владимир', 'Игорь', 'Андрей', 'Михаил', 'Николай', 'Юрий', 'Алексей', 'Вячеслав', 'Григорий', 'Пётр', 'Фёдор', 'Артём', 'Максим', 'Вадим', 'Анатолий', 'Валерий', 'Леонид', 'Ярослав', 'Семён', 'Аркадий', 'Геннадий', 'Эдуард', 'Станислав', 'Тимофей'];
const RU_GIVEN_F = ['Елена', 'Юлия', 'Татьяна', 'Ольга', 'Наталья', 'Ксения', 'Людмила', 'Екатерина'];
const RU_PATRONYMIC = ['Евгеньевич', 'Дмитриевич', 'Сергеевич', 'Александрович', 'Владимирович', 'Игоревич', 'Андреевич', 'Михайлович', 'Николаевич', 'Викторович', 'Юрьевич', 'Алексеевич', 'Петрович', 'Фёдорович', 'Олегович', 'Анатольевич', 'Валерьевич', 'Леонидович', 'Борисович', 'Геннадьевич'];
const RU_FAMILY = ['Кузнецов', 'Соловьёв', 'Журавлёв', 'Щукин', 'Хохлов', 'Цветков', 'Чернышёв', 'Шестаков', 'Яшин', 'Зыков', 'Лихачёв', 'Хрущёв', 'Жданов', 'Дьячков', 'Юдин', 'Рыжков', 'Чайковский', 'Грызлов', 'Ежов', 'Ерёмин', 'Юшков', 'Мещеряков', 'Плещеев', 'Щёголев', 'Ширяев', 'Чижов', 'Коржаков', 'Пугачёв', 'Тучков', 'Воронцов', 'Сысоев', 'Гусев', 'Князев', 'Зиновьев', 'Муравьёв', 'Кисилёв', 'Ефремов', 'Яковенко', 'Жириновский', 'Шувалкин'];
const SR_GIVEN = ['Милорад', 'Драган', 'Зоран', 'Горан', 'Ненад', 'Слободан', 'Радован', 'Жељко', 'Ратко', 'Милош', 'Душан', 'Борислав', 'Ђорђе', 'Јован'];
const SR_FAMILY = ['Ђукић', 'Јовановић', 'Чолић', 'Марковић', 'Жижић', 'Ђорђевић', 'Тадић', 'Шаиновић', 'Лукић', 'Стојиљковић', 'Ћосић', 'Пантелић', 'Мијатовић', 'Његовановић'];

// --- Arabic, written by its sounds: A I U long vowels, E final alif maqsura, P ta marbuta,
// H ḥ, x kh, V th, O dh, c sh, S ṣ, D ḍ, T ṭ, Z ẓ, 3 ʿayn, g gh, ' hamza.
const AR_GIVEN = ['muHammad', "'aHmad", 'maHmUd', 'xAlid', '3umar', 'yUsuf', "'ibrAhIm", 'Hasan', 'Husayn', 'muSTafE', 'TAriq', 'sa3Id', 'jamAl', 'karIm', 'nASir', 'walId', 'faySal', 'HamzP', 'bilAl', "'anwar", 'yAsIn', 'sulaymAn', '3uVmAn', "'usAmP", '3Adil', 'qAsim', 'ja3far', '3alI', 'ziyAd', "'ayman", 'hicAm', '3imAd', 'gassAn', 'marwAn', 'rAcid', 'carIf', 'munOir', 'muZaffar', 'xalIl', 'gAzI', '3abd al-raHmAn', '3abd al-3azIz', '3abd allAh', '3abd al-karIm', 'SalAH al-dIn', 'nUr al-dIn'];
const AR_FAMILY = ['al-qaHTAnI', 'al-HarbI', 'al-dulaymI', 'al-3ubaydI', 'al-tamImI', 'al-xazrajI', 'al-SAliH', 'al-najjAr', 'al-HaddAd', 'al-bagdAdI', 'al-3irAqI', 'al-HakIm', "al-jazA'irI", 'al-quraycI', 'al-muTayrI', 'al-3anazI', 'al-dawsarI', 'al-rubay3I', 'al-nUrI', 'al-kurdI', 'al-VaqafI', 'al-OahabI', 'al-zubaydI', 'al-jubUrI', 'al-Sabbag', 'al-maSrI', 'HijAzI', 'cAhIn'];
const SUN = 'tVdOrzscSDTZln';
const isVowel = (c: string | undefined) => !!c && 'aiuAIUEP'.includes(c);
type ArabicSystem = 'listed' | 'din' | 'french' | 'egyptian';
/** Each sound in each table: ALA-LC without its marks (the lists), DIN 31635, French usage, Egyptian English. */
const AR_SOUNDS: Record<string, [string, string, string, string]> = {
  V: ['th', 'ṯ', 'th', 's'], j: ['j', 'ǧ', 'dj', 'g'], H: ['h', 'ḥ', 'h', 'h'], x: ['kh', 'ḫ', 'kh', 'kh'], O: ['dh', 'ḏ', 'd', 'z'],
  c: ['sh', 'š', 'ch', 'sh'], S: ['s', 'ṣ', 's', 's'], D: ['d', 'ḍ', 'd', 'd'], T: ['t', 'ṭ', 't', 't'], Z: ['z', 'ẓ', 'z', 'z'],
  3: ['', 'ʿ', '', ''], g: ['gh', 'ġ', 'gh', 'gh'], q: ['q', 'q', 'k', 'k'], "'": ['', '', '', ''],
  a: ['a', 'a', 'a', 'a'], i: ['i', 'i', 'i', 'e'], u: ['u', 'u', 'ou', 'o'], A: ['a', 'ā', 'a', 'a'], I: ['i', 'ī', 'i', 'i'], U: ['u', 'ū', 'ou', 'ou'], E: ['a', 'ā', 'a', 'a'], P: ['a', 'a', 'a', 'a'],
};
const SYSTEM_INDEX: Record<ArabicSystem, number> = { listed: 0, din: 1, french: 2, egyptian: 3 };
function arabicSounds(word: string, system: ArabicSystem): string {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    const prev = word[i - 1];
    const next = word[i + 1];
    if (system === 'french' && c === 's' && isVowel(prev) && isVowel(next)) out += 'ss';
    else if (system === 'french' && c === 'w' && isVowel(next)) out += 'ou';
    else if (system === 'egyptian' && c === 'a' && next === 'y' && /[^'3]/.test(word.slice(0, i)) && word[i + 2] && !isVowel(word[i + 2])) {
      out += 'ei';
      i++;
    }
    else out += AR_SOUNDS[c]?.[SYSTEM_INDEX[system]] ?? c;
  }
  // French writes a silent e after a long vowel and n (Yassine, Othmane).
  if (system === 'french' && /[AI]n$/.test(word)) out += 'e';
  return out;
}
const capArabic = (w: string) => w.replace(/^(ʿ?)(.)/, (_, ayn: string, c: string) => ayn + c.toUpperCase());
/** One word or article-and-word, in a table's spelling. */
function arabicWord(word: string, system: ArabicSystem): string {
  if (word === 'bin') return system === 'french' ? 'ben' : 'bin';
  if (word === 'allAh') return system === 'din' ? 'Allāh' : 'Allah';
  const article = /^al-(.*)$/.exec(word);
  if (!article) return capArabic(arabicSounds(word, system));
  const rest = article[1]!;
  const body = capArabic(arabicSounds(rest, system));
  if (system === 'din') return `${SUN.includes(rest[0]!) ? `a${arabicSounds(rest[0]!, 'din')}` : 'al'}-${body}`;
  if (system === 'french') return `El ${body}`;
  if (system === 'egyptian') return `el-${body}`;
  return `al-${body}`;
}
/** A full name: French joins Abd al-… and …al-Din into one word, as French usage writes them. */
function arabicName(words: string[], system: ArabicSystem): string {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    if (system === 'french' && w === '3abd' && next?.startsWith('al')) {
      const rest = next === 'allAh' ? 'allAh' : next.slice(3);
      const link = next === 'allAh' ? '' : SUN.includes(rest[0]!) ? `e${arabicSounds(rest[0]!, 'french')}` : 'el';
      out.push(`Abd${link}${arabicSounds(rest, 'french')}${/[AI]n$/.test(rest) ? 'e' : ''}`);
      i++;
    } else if (system === 'french' && next === 'al-dIn') {
      out.push(`${capArabic(arabicSounds(w, 'french'))}eddine`);
      i++;
    } else if (system === 'egyptian' && w === '3abd' && next?.startsWith('al-')) {
      out.push('Abdel', capArabic(arabicSounds(next.slice(3), 'egyptian')));
      i++;
    } else out.push(arabicWord(w, system));
  }
  return out.join(' ');
}
const ARABIC_LETTERS: Record<string, string> = {
  b: 'ب', t: 'ت', V: 'ث', j: 'ج', H: 'ح', x: 'خ', d: 'د', O: 'ذ', r: 'ر', z: 'ز', s: 'س', c: 'ش', S: 'ص', D: 'ض', T: 'ط', Z: 'ظ',
  3: 'ع', g: 'غ', f: 'ف', q: 'ق', k: 'ك', l: 'ل', m: 'م', n: 'ن', h: 'ه', w: 'و', y: 'ي', A: 'ا', I: 'ي', U: 'و', E: 'ى', P: 'ة',
};
/** Arabic script: short vowels and doubling unwritten, the article joined, hamza on its seat. */
function arabicScript(word: string): string {
  if (word === 'bin') return 'بن';
  if (word === 'allAh') return 'الله';
  const article = word.startsWith('al-');
  const sounds = article ? word.slice(3) : word;
  let out = article ? 'ال' : '';
  for (let i = 0; i < sounds.length; i++) {
    const c = sounds[i]!;
    if (c === "'") out += i === 0 ? (sounds[1] === 'i' ? 'إ' : 'أ') : 'ئ';
    else if (c !== sounds[i - 1]) out += ARABIC_LETTERS[c] ?? '';
  }
  return out;
}

// --- Chinese (pinyin → Wade-Giles) and Korean (McCune-Reischauer as North Korea's lists print it → Revised Romanization).
const ZH_FAMILY: [string, string][] = [['Wang', 'Wang'], ['Li', 'Li'], ['Zhang', 'Chang'], ['Liu', 'Liu'], ['Chen', "Ch'en"], ['Yang', 'Yang'], ['Zhao', 'Chao'], ['Huang', 'Huang'], ['Zhou', 'Chou'], ['Xu', 'Hsü'], ['Sun', 'Sun'], ['Zhu', 'Chu'], ['Guo', 'Kuo'], ['Lin', 'Lin'], ['Gao', 'Kao'], ['Zheng', 'Cheng'], ['Xie', 'Hsieh'], ['Qian', "Ch'ien"], ['Jiang', 'Chiang']];
const ZH_SYLLABLE: [string, string][] = [['jian', 'chien'], ['guo', 'kuo'], ['xiao', 'hsiao'], ['ming', 'ming'], ['hua', 'hua'], ['zhi', 'chih'], ['qiang', "ch'iang"], ['wei', 'wei'], ['hong', 'hung'], ['jun', 'chün'], ['yong', 'yung'], ['zhong', 'chung'], ['de', 'te'], ['xin', 'hsin'], ['qing', "ch'ing"], ['cheng', "ch'eng"], ['ping', "p'ing"], ['dong', 'tung'], ['hai', 'hai'], ['jie', 'chieh'], ['feng', 'feng'], ['tao', "t'ao"], ['rong', 'jung'], ['xue', 'hsüeh'], ['shi', 'shih'], ['chun', "ch'un"]];
const KO_FAMILY: [string, string][] = [['Kim', 'Gim'], ['Pak', 'Bak'], ['Ri', 'I'], ['Choe', 'Choe'], ['Jong', 'Jeong'], ['Kang', 'Gang'], ['Han', 'Han'], ['Yun', 'Yun'], ['Jang', 'Jang'], ['Song', 'Seong'], ['Ryu', 'Yu'], ['O', 'O']];
const KO_SYLLABLE: [string, string][] = [['Chol', 'cheol'], ['Song', 'seong'], ['Hyok', 'hyeok'], ['Jong', 'jeong'], ['Kwang', 'gwang'], ['Kyong', 'gyeong'], ['Il', 'il'], ['Su', 'su'], ['Nam', 'nam'], ['Ho', 'ho'], ['Myong', 'myeong'], ['Hak', 'hak'], ['Sok', 'seok'], ['Un', 'eun'], ['Pyong', 'byeong'], ['Thae', 'tae'], ['Tok', 'deok'], ['Yong', 'yong'], ['Chang', 'chang'], ['Hui', 'hui'], ['Ryong', 'ryong'], ['Min', 'min']];

// --- Names written in Latin letters: Spanish (two family names) and Persian (compound given names).
const ES_GIVEN = ['Joaquín', 'Rafael', 'Ismael', 'Ovidio', 'Jesús', 'Nemesio', 'Rubén', 'Dámaso', 'Héctor', 'Aureliano', 'Gilberto', 'Fausto', 'Ramón', 'Ignacio'];
const ES_FAMILY = ['Guzmán', 'Loera', 'Caro', 'Quintero', 'Oseguera', 'Cervantes', 'López', 'Núñez', 'Beltrán', 'Fonseca', 'Gallardo', 'Rodríguez', 'Mendoza', 'Ávila', 'Espinoza', 'Valencia', 'Salazar', 'Ibáñez'];
const FA_GIVEN = ['Mohammad Reza', 'Ali Reza', 'Mohammad Ali', 'Hossein Ali', 'Gholam Reza', 'Mohammad Hossein', 'Ali Asghar', 'Mohammad Bagher', 'Mahmoud', 'Ghasem', 'Mehdi', 'Hamid', 'Majid', 'Farhad', 'Behrouz', 'Kourosh', 'Dariush'];
const FA_FAMILY = ['Rezaei', 'Mousavi', 'Kazemi', 'Najafi', 'Bagheri', 'Rostami', 'Soleimani', 'Ghasemi', 'Nazari', 'Tavakoli', 'Larijani', 'Salehi', 'Abbasi', 'Ebrahimi', 'Heidari', 'Shirazi', 'Esfahani', 'Tabrizi'];

// --- Typing errors and the ways a name is shortened or reordered, on the listed spelling.
const QWERTY: Record<string, string> = {
  q: 'wa', w: 'qeas', e: 'wrsd', r: 'etdf', t: 'ryfg', y: 'tugh', u: 'yihj', i: 'uojk', o: 'ipkl', p: 'ol', a: 'qwsz', s: 'adwezx', d: 'sferxc',
  f: 'dgrtcv', g: 'fhtyvb', h: 'gjyubn', j: 'hkuinm', k: 'jliom', l: 'kop', z: 'asx', x: 'zcsd', c: 'xvdf', v: 'cbfg', b: 'vngh', n: 'bmhj', m: 'njk',
};
const PARTICLES = new Set(['bin', 'ben', 'de', 'del', 'la']);
/** A word worth mistyping (not a particle) and a position in it holding a plain letter. */
function slipAt(words: string[]): [number, number] | undefined {
  const candidates = words.flatMap((w, i) => (PARTICLES.has(w.toLowerCase()) || w.length < 3 ? [] : [i]));
  if (!candidates.length) return undefined;
  const i = pick(candidates);
  const letters = [...words[i]!].flatMap((c, j) => (QWERTY[c.toLowerCase()] ? [j] : []));
  return letters.length ? [i, pick(letters)] : undefined;
}
function withWord(words: string[], i: number, w: string): string {
  return words.map((x, j) => (j === i ? w : x)).join(' ');
}
type Shape = (l: Listed) => string | undefined;
const SHAPES: Record<string, Shape> = {
  'keyboard slip': ({ given, family }) => {
    const words = [...given, ...family];
    const at = slipAt(words);
    if (!at) return undefined;
    const [i, j] = at;
    const c = words[i]![j]!;
    const near = pick([...QWERTY[c.toLowerCase()]!]);
    return withWord(words, i, words[i]!.slice(0, j) + (c === c.toUpperCase() ? near.toUpperCase() : near) + words[i]!.slice(j + 1));
  },
  'dropped letter': ({ given, family }) => {
    const words = [...given, ...family];
    const at = slipAt(words);
    return at && withWord(words, at[0], words[at[0]]!.slice(0, at[1]) + words[at[0]]!.slice(at[1] + 1));
  },
  'doubled letter': ({ given, family }) => {
    const words = [...given, ...family];
    const at = slipAt(words);
    return at && withWord(words, at[0], words[at[0]]!.slice(0, at[1] + 1) + words[at[0]]!.slice(at[1]));
  },
  'missing middle name': ({ given, family }) => (given.length >= 2 ? [given[0], ...family].join(' ') : undefined),
  'middle name as initial': ({ given, family }) => (given.length >= 2 && !PARTICLES.has(given[1]!) && !given[1]!.startsWith('al-') ? [given[0], `${given[1]![0]}.`, ...given.slice(2), ...family].join(' ') : undefined),
  'given names as initials': ({ given, family }) => [...given.filter((g) => !PARTICLES.has(g)).map((g) => `${g[0]}.`), ...family].join(' '),
  'family name first': ({ given, family }) => [...family, ...given].join(' '),
};

function addEntry(listed: Listed, countries: string[], programme: string, kinds: [string, string][]): void {
  const id = `HO-${String(entries.length + 1).padStart(4, '0')}`;
  const birth = `${1950 + Math.floor(random() * 45)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
  entries.push({ source: 'held_out', list_id: id, names: [`${listed.family.join(' ').toUpperCase()}, ${listed.given.join(' ')}`], kind: 'person', birth_dates: [birth], countries, programmes: [programme] });
  const shapes = shuffled(Object.keys(SHAPES)).flatMap((k) => {
    const query = SHAPES[k]!(listed);
    return query ? [[k, query] as [string, string]] : [];
  });
  for (const [variant, query] of [...kinds, ...shapes.slice(0, 2)]) variants.push({ query, list_id: id, variant });
}

const feminine = (family: string) => (/ий$/.test(family) ? family.replace(/ий$/, 'ая') : /(ов|ев|ёв|ин)$/.test(family) ? `${family}а` : family);
function russian(): void {
  const female = random() < 0.2;
  const given = female ? pick(RU_GIVEN_F) : pick(RU_GIVEN);
  const patronymic = female ? pick(RU_PATRONYMIC).replace(/ич$/, 'на') : pick(RU_PATRONYMIC);
  const family = female ? feminine(pick(RU_FAMILY)) : pick(RU_FAMILY);
  const words = [given, patronymic, family];
  const spell = (t: CyrillicTable) => words.map((w) => romaniseCyrillic(w, t));
  const listed = spell(CYRILLIC.bgn);
  const kinds = (['iso9', 'icao', 'german', 'french'] as const).map((t): [string, string] => [`Cyrillic: ${CYRILLIC[t].name}`, spell(CYRILLIC[t]).join(' ')]);
  addEntry({ given: listed.slice(0, 2), family: listed.slice(2) }, ['RU'], 'RUSSIA-EO14024', [...kinds, ['Cyrillic script', words.join(' ')]]);
}
function serbian(given: string, family: string): void {
  const words = [given, family];
  const asRussian = (w: string) => SERBIAN_AS_RUSSIAN.reduce((s, [from, to]) => s.replace(from, to), w.toLowerCase());
  const listed = words.map(serbianLatin);
  const kinds: [string, string][] = [
    ['Serbian: without diacritics', listed.map(asciiSerbian).join(' ')],
    ...(['bgn', 'german', 'french'] as const).map((t): [string, string] => [`Serbian: ${CYRILLIC[t].name}, by the Russian spelling`, words.map((w) => romaniseCyrillic(asRussian(w), CYRILLIC[t])).join(' ')]),
    ['Cyrillic script', words.join(' ')],
  ];
  addEntry({ given: [listed[0]!], family: [listed[1]!] }, ['RS'], 'BALKANS-EO14033', kinds);
}
function arabic(): void {
  const father = pick(AR_GIVEN);
  const words = [...pick(AR_GIVEN).split(' '), ...(random() < 0.5 ? ['bin'] : []), ...father.split(' '), pick(AR_FAMILY)];
  const listed = arabicName(words, 'listed').split(' ');
  const family = listed.slice(-1);
  const joined = family[0]!.startsWith('al-') ? [['article joined to the name', [...listed.slice(0, -1), cap(family[0]!.replace('-', '').toLowerCase())].join(' ')] as [string, string]] : [];
  const kinds: [string, string][] = [
    ['Arabic: DIN 31635', arabicName(words, 'din')],
    ['Arabic: French usage', arabicName(words, 'french')],
    ['Arabic: Egyptian English', arabicName(words, 'egyptian')],
    ['Arabic script', words.map(arabicScript).join(' ')],
    ...joined,
  ];
  addEntry({ given: listed.slice(0, -1), family }, [pick(['IQ', 'SA', 'YE', 'SY', 'LB', 'DZ', 'EG'])], 'SDGT', kinds);
}
function chinese(): void {
  const [family, familyWG] = pick(ZH_FAMILY);
  const [a, b] = [pick(ZH_SYLLABLE), pick(ZH_SYLLABLE)];
  const given = cap(a[0] + b[0]);
  addEntry({ given: [given], family: [family] }, ['CN'], 'CMIC-EO13959', [
    ['Chinese: Wade-Giles, family name first', `${familyWG} ${cap(a[1])}-${b[1]}`],
    ['given name split', `${cap(a[0])} ${cap(b[0])} ${family}`],
  ]);
}
function korean(): void {
  const [family, familyRR] = pick(KO_FAMILY);
  const [a, b] = [pick(KO_SYLLABLE), pick(KO_SYLLABLE)];
  addEntry({ given: [a[0], b[0]], family: [family] }, ['KP'], 'DPRK3', [
    ['Korean: Revised Romanization, family name first', `${familyRR} ${cap(a[1])}-${b[1]}`],
    ['given name joined', `${a[0]}${b[0].toLowerCase()} ${family}`],
  ]);
}
function spanish(): void {
  const given = pick(ES_GIVEN);
  const family = [pick(ES_FAMILY), pick(ES_FAMILY)];
  addEntry({ given: [given], family }, ['MX'], 'SDNTK', [['second family name dropped', `${given} ${family[0]}`]]);
}
function persian(): void {
  const given = pick(FA_GIVEN).split(' ');
  const family = pick(FA_FAMILY);
  addEntry({ given, family: [family] }, ['IR'], 'IRGC', given.length > 1 ? [['given name joined', `${given[0]}${given[1]!.toLowerCase()} ${family}`]] : []);
}

serbian('Војислав', 'Шешељ');
for (let i = 0; i < 12; i++) serbian(pick(SR_GIVEN), pick(SR_FAMILY));
for (let i = 0; i < 45; i++) russian();
for (let i = 0; i < 50; i++) arabic();
for (let i = 0; i < 20; i++) chinese();
for (let i = 0; i < 15; i++) korean();
for (let i = 0; i < 12; i++) spanish();
for (let i = 0; i < 12; i++) persian();

// --- Ordinary names made of the lists' own words. A name is kept only when no listed person's
// name holds both its first and its last word, even spelt another way (compared by a rough
// consonant key): a listed name with a middle name more or less is the listed person.
const tuningListed = JSON.parse(readFileSync(path.join(TESTDATA, 'listed.json'), 'utf8')) as Entry[];
const plainOrdinary = JSON.parse(readFileSync(path.join(TESTDATA, 'ordinary.json'), 'utf8')) as { name: string }[];
const persons = [...tuningListed, ...entries].filter((e) => e.kind === 'person');
const titleCase = (w: string) => w.toLowerCase().replace(/(^|[-\s])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase()).replace(/^Al-/, 'al-');
const ARABIC_COUNTRIES = new Set(['LY', 'IQ', 'SY', 'YE', 'SA', 'EG', 'SO', 'SD', 'LB', 'DZ']);
/** The words of one origin's listed names: first names, middle names (a father's, a patronymic), family names. */
interface Vocabulary { first: string[]; middle: string[]; family: string[] }
const vocabulary = new Map<string, Vocabulary>();
for (const e of persons) {
  const [family, given] = e.names[0]!.split(', ');
  if (!given || !/^[\p{Script=Latin}\s',.-]+$/u.test(e.names[0]!)) continue;
  const origin = ARABIC_COUNTRIES.has(e.countries[0]!) ? 'arabic' : e.countries[0]!;
  if (!vocabulary.has(origin)) vocabulary.set(origin, { first: [], middle: [], family: [] });
  const v = vocabulary.get(origin)!;
  // A first name runs on over its al- words (Abd al-Rahman, Salah al-Din).
  const words = given.split(' ').filter((w) => !PARTICLES.has(w));
  const firstLength = 1 + words.slice(1).findIndex((w) => !w.startsWith('al-'));
  const cut = firstLength === 0 ? words.length : firstLength;
  v.first.push(words.slice(0, cut).join(' '));
  if (words.length > cut) v.middle.push(words.slice(cut).join(' '));
  v.family.push(titleCase(family!));
}
const origins = [...vocabulary.keys()].sort();
const plainGiven = [...new Set(plainOrdinary.map((o) => titleCase(o.name.split(' ')[0]!)))];
const plainFamily = [...new Set(plainOrdinary.map((o) => titleCase(o.name.split(' ').at(-1)!)))];
const roughKey = (w: string) => w.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/^(al|el)-/, '').replace(/[^a-z]/g, '')
  .replace(/[qgc]/g, 'k').replace(/[aeiouyhw]/g, '').replace(/(.)\1+/g, '$1');
const namesByKey = new Map<string, Set<number>>();
persons.forEach((e, n) => {
  for (const name of e.names) for (const w of name.replace(',', '').split(/[\s-]+/)) {
    const key = roughKey(w);
    if (!namesByKey.has(key)) namesByKey.set(key, new Set());
    namesByKey.get(key)!.add(n);
  }
});
const isListedPerson = (words: string[]) => {
  const [first, last] = [words[0]!, words.at(-1)!].map((w) => namesByKey.get(roughKey(w)) ?? new Set<number>());
  return [...first!].some((n) => last!.has(n));
};
const anyFirst = () => pick(vocabulary.get(pick(origins))!.first);
const SHAPES_OF_ORDINARY: ((v: Vocabulary) => string[])[] = [
  (v) => [pick(v.first), pick(v.family)],
  (v) => [pick(v.first), pick(v.first), pick(v.family)],
  (v) => [pick(v.first), ...(v.middle.length ? [pick(v.middle)] : []), pick(v.family)],
  (v) => [pick(plainGiven), pick(v.family)],
  () => [anyFirst(), pick(plainFamily)],
];
const COUNTRIES = ['FR', 'BE', 'CA', 'MA', 'DZ', 'TN', 'SN', 'EG', 'RU', 'UA', 'RS', 'CN', 'KR', 'ES', 'MX', 'IR', 'IQ', 'LB'];
const shared: { name: string; birth_date: string; country: string }[] = [];
const seen = new Set<string>();
while (shared.length < 1_000) {
  const words = pick(SHAPES_OF_ORDINARY)(vocabulary.get(pick(origins))!).flatMap((w) => w.split(' '));
  const name = words.join(' ');
  if (seen.has(name) || new Set(words.map(roughKey)).size < words.length || isListedPerson(words)) continue;
  seen.add(name);
  shared.push({ name: random() < 0.3 ? name.toUpperCase() : name, birth_date: `${1950 + Math.floor(random() * 56)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`, country: pick(COUNTRIES) });
}

const json = (x: unknown) => `${JSON.stringify(x, null, 0).replace(/\},\{/g, '},\n{')}\n`;
mkdirSync(OUT, { recursive: true });
writeFileSync(path.join(OUT, 'listed.json'), json(entries));
writeFileSync(path.join(OUT, 'variants.json'), json(variants));
writeFileSync(path.join(OUT, 'shared-vocabulary.json'), json(shared));
console.log(`${entries.length} entries, ${variants.length} variants, ${shared.length} ordinary names of the lists' words`);
