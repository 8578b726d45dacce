// Writes the matcher's tuning set, the labelled set it was tuned on (src/core/screening/testdata/*.json,
// docs/rules/screening.md#the-labelled-sets):
// fictional listed entries in the lists' style plus filler for realistic rarity weights, spelling
// variants each labelled with the entry it must hit, and ordinary names that must not alert.
// Deterministic: `npx tsx scripts/screening/generate-labelled-set.ts` rewrites the same files.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ListedEntry } from '@core/screening/types.js';
import { seededRandom } from './seeded-random.js';

const OUT = path.join(path.dirname(new URL(import.meta.url).pathname), '../../src/core/screening/testdata');

const { random, pick } = seededRandom(20261126);

/** [native script or '', listed spelling, other spellings...] */
type Part = string[];
const AR_FIRST: Part[] = [
  ['محمد', 'Mohammed', 'Muhammad', 'Mohamed', 'Mohamad'], ['أحمد', 'Ahmed', 'Ahmad'], ['خالد', 'Khalid', 'Khaled'],
  ['عمر', 'Omar', 'Umar'], ['يوسف', 'Yusuf', 'Youssef', 'Yousef'], ['إبراهيم', 'Ibrahim', 'Ebrahim'],
  ['حسن', 'Hassan', 'Hasan'], ['حسين', 'Hussein', 'Husayn', 'Hussain'], ['مصطفى', 'Mustafa', 'Mostafa', 'Moustafa'],
  ['طارق', 'Tariq', 'Tarek', 'Tarik'], ['سعيد', 'Saeed', 'Said', 'Saied'], ['جمال', 'Jamal', 'Djamal'],
  ['كريم', 'Karim', 'Kareem'], ['ناصر', 'Nasser', 'Nasir'], ['وليد', 'Walid', 'Waleed'], ['فيصل', 'Faisal', 'Faysal'],
  ['حمزة', 'Hamza', 'Hamzah'], ['بلال', 'Bilal', 'Belal'], ['أنور', 'Anwar', 'Anouar'], ['ياسين', 'Yasin', 'Yassine', 'Yaseen'],
  ['سليمان', 'Sulayman', 'Suleiman', 'Soliman'], ['عثمان', 'Uthman', 'Othman', 'Osman'], ['أسامة', 'Usama', 'Osama', 'Oussama'],
  ['معمر', 'Muammar', 'Moammar', 'Mouammar'], ['عبد الرحمن', 'Abd al-Rahman', 'Abdulrahman', 'Abderrahmane', 'Abdel Rahman'],
  ['عبد العزيز', 'Abd al-Aziz', 'Abdulaziz', 'Abdelaziz'], ['عبد الله', 'Abdallah', 'Abdullah', 'Abdalla'],
  ['منصور', 'Mansour', 'Mansur'], ['رشيد', 'Rashid', 'Rachid'], ['شريف', 'Sharif', 'Cherif', 'Shareef'],
];
const AR_FAMILY: Part[] = [
  ['القذافي', 'al-Qadhafi', 'Gaddafi', 'Kadhafi', 'el-Qaddafi'], ['الزهراني', 'al-Zahrani', 'el-Zahrani', 'Zahrani'],
  ['الحربي', 'al-Harbi', 'el-Harbi'], ['القحطاني', 'al-Qahtani', 'al-Kahtani'], ['الشمري', 'al-Shammari', 'al-Chammari'],
  ['المصري', 'al-Masri', 'el-Masry'], ['البغدادي', 'al-Baghdadi', 'el-Baghdadi'], ['التكريتي', 'al-Tikriti', 'al-Takriti'],
  ['الحسيني', 'al-Husseini', 'al-Husayni'], ['الأنصاري', 'al-Ansari', 'el-Ansari'], ['الكعبي', 'al-Kaabi', 'al-Kabi'],
  ['الدوري', 'al-Douri', 'al-Duri'], ['الجبوري', 'al-Jubouri', 'al-Juburi'], ['الراوي', 'al-Rawi', 'el-Rawi'],
  ['السوداني', 'al-Sudani', 'el-Soudani'], ['الليبي', 'al-Libi', 'al-Libbi'], ['الكبيسي', 'al-Kubaisi', 'al-Kubaysi'],
  ['الفلاحي', 'al-Falahi', 'el-Falahi'], ['الهاشمي', 'al-Hashimi', 'al-Hachemi'], ['الجزائري', 'al-Jazairi', 'al-Djazairi'],
  ['الصومالي', 'al-Somali', 'as-Somali'], ['الشيشاني', 'al-Shishani', 'ash-Shishani'], ['الموصلي', 'al-Mosuli', 'al-Mawsili'],
];
const RU_FIRST: Part[] = [
  ['Евгений', 'Yevgeniy', 'Evgeny', 'Evgeniy', 'Yevgeny', 'Evgueni'], ['Дмитрий', 'Dmitriy', 'Dmitry', 'Dmitri'],
  ['Сергей', 'Sergey', 'Sergei', 'Serguei'], ['Александр', 'Aleksandr', 'Alexander', 'Alexandr'], ['Владимир', 'Vladimir', 'Wladimir'],
  ['Игорь', 'Igor', 'Igor'], ['Олег', 'Oleg', 'Oleg'], ['Андрей', 'Andrey', 'Andrei'], ['Михаил', 'Mikhail', 'Michail'],
  ['Николай', 'Nikolay', 'Nikolai'], ['Виктор', 'Viktor', 'Victor'], ['Юрий', 'Yuriy', 'Yuri', 'Iouri'],
  ['Аркадий', 'Arkadiy', 'Arkady'], ['Геннадий', 'Gennadiy', 'Gennady'], ['Алексей', 'Aleksey', 'Alexei', 'Alexey'],
  ['Вячеслав', 'Vyacheslav', 'Viacheslav'], ['Константин', 'Konstantin', 'Constantin'], ['Григорий', 'Grigoriy', 'Grigory'],
];
const RU_FAMILY: Part[] = [
  ['Золотарёв', 'Zolotarev', 'Zolotaryov'], ['Белоусов', 'Belousov', 'Belousow'], ['Щербаков', 'Shcherbakov', 'Chtcherbakov'],
  ['Хабаров', 'Khabarov', 'Habarov'], ['Жуковский', 'Zhukovskiy', 'Zhukovsky', 'Joukovski'], ['Кравченко', 'Kravchenko', 'Krawtschenko'],
  ['Тимошенко', 'Timoshenko', 'Tymoshenko'], ['Ковальчук', 'Kovalchuk', 'Kowaltschuk'], ['Сидоренко', 'Sidorenko', 'Sydorenko'],
  ['Воробьёв', 'Vorobyev', 'Vorobiev', 'Vorobyov'], ['Гурьев', 'Guryev', 'Guriev'], ['Мельников', 'Melnikov', 'Melnikow'],
  ['Чернов', 'Chernov', 'Tchernov'], ['Яковлев', 'Yakovlev', 'Iakovlev'], ['Пригожин', 'Prigozhin', 'Prigojine'],
  ['Ротенберг', 'Rotenberg', 'Rottenberg'], ['Дерипаска', 'Deripaska', 'Deripasca'], ['Шувалов', 'Shuvalov', 'Chouvalov'],
  ['Поляков', 'Polyakov', 'Poliakov'], ['Зайцев', 'Zaytsev', 'Zaitsev'],
];
const FA_FIRST = ['Reza', 'Hossein', 'Mahmoud', 'Qasem', 'Mojtaba', 'Ali Akbar', 'Mehdi', 'Javad', 'Saeed', 'Esmail', 'Gholam', 'Parviz'];
const FA_FAMILY = ['Rezaei', 'Mohammadi', 'Hosseini', 'Ahmadi', 'Jafari', 'Karimi', 'Rahimi', 'Sadeghi', 'Moradi', 'Ghorbani', 'Nouri', 'Tehrani', 'Vahidi', 'Safavi', 'Shamkhani'];
const ES_FIRST = ['José Luis', 'Juan Carlos', 'Luis', 'Carlos', 'Miguel Ángel', 'Jesús', 'Rafael', 'Joaquín', 'Ismael', 'Héctor', 'Arturo', 'Ovidio', 'Fernando', 'Ramón'];
const ES_FAMILY = ['Guzmán', 'Loera', 'Zambada', 'Beltrán', 'Leyva', 'Quintero', 'Carrillo', 'Fuentes', 'Arellano', 'Félix', 'Cárdenas', 'Guillén', 'Ochoa', 'Orejuela', 'Gacha', 'Henao', 'Montoya', 'Urdinola', 'Villarreal', 'Treviño'];
const AF_FIRST = ['Innocent', 'Bosco', 'Sylvestre', 'Callixte', 'Ignace', 'Germain', 'Baudouin', 'Laurent', 'Gaston', 'Stanislas'];
const AF_FAMILY = ['Mudacumura', 'Ntabiro', 'Kalumbwe', 'Sematumba', 'Nzabahimana', 'Rwagasana', 'Mbarushimana', 'Kakwavu', 'Lubanga', 'Ngudjolo'];
const ORG_WORDS = ['Zolotar', 'Noor', 'Sahara', 'Baraka', 'Crescent', 'Orion', 'Sinai', 'Pacifico', 'Tigris', 'Caspian', 'Falcon', 'Aurora', 'Meridian', 'Zenith', 'Andes', 'Kestrel', 'Obsidian', 'Harbin', 'Volga', 'Medina'];
const ORG_TRADE = ['Shipping', 'Petroleum', 'Logistics', 'Exchange', 'Import Export', 'Mining', 'Aviation', 'Chemicals', 'Finance', 'Investments'];
const ORG_FORM: [string, string][] = [['LLC', 'Limited Liability Company'], ['Ltd', 'Limited'], ['FZE', 'F.Z.E.'], ['SA', 'S.A.'], ['Corp', 'Corporation'], ['GmbH', 'G.m.b.H.'], ['JSC', 'Joint Stock Company']];
const COUNTRIES_AR = ['LY', 'IQ', 'SY', 'YE', 'SA', 'EG', 'SO', 'SD'];

interface Person { script: string; parts: { native: string; listed: string; others: string[] }[]; style: 'ar' | 'ru' | 'other' }
interface Variant { query: string; list_id: string; variant: string; birth_date?: string }

const entries: ListedEntry[] = [];
const variants: Variant[] = [];
const date = (from: number, to: number) => `${from + Math.floor(random() * (to - from))}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
const part = (p: Part) => ({ native: p[0]!, listed: p[1]!, others: p.slice(2) });
const typo = (w: string): string => {
  const i = 1 + Math.floor(random() * (w.length - 2));
  const kind = Math.floor(random() * 3);
  if (kind === 0) return w.slice(0, i) + w.slice(i + 1);
  if (kind === 1) return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  return w.slice(0, i) + (w[i] === 'e' ? 'a' : 'e') + w.slice(i + 1);
};

function addPerson(id: string, person: Person, birth: string, countries: string[], programme: string, labelled: boolean) {
  const listed = person.parts.map((p) => p.listed);
  const last = listed[listed.length - 1]!;
  const primary = `${last.toUpperCase()}, ${listed.slice(0, -1).join(' ')}`;
  const alias = person.parts.map((p) => p.others[0] ?? p.listed).join(' ');
  entries.push({ source: 'ofac_sdn', list_id: id, names: [primary, alias], kind: 'person', birth_dates: random() < 0.3 ? [birth.slice(0, 4)] : [birth], countries, programmes: [programme] });
  if (!labelled) return;
  const forms: [string, string][] = [];
  const others = person.parts.map((p) => pick(p.others.length ? p.others : [p.listed]));
  if (person.parts.some((p) => p.others.length > 0)) forms.push(['transliteration', others.join(' ')]);
  forms.push(['word order', [last, ...listed.slice(0, -1)].join(' ')]);
  const words = listed.join(' ').split(' ');
  const longest = words.reduce((a, b) => (b.replace(/^(al|el)-/, '').length > a.replace(/^(al|el)-/, '').length ? b : a));
  forms.push(['one-letter typo', words.map((w) => (w === longest ? typo(w) : w)).join(' ')]);
  if (listed.length >= 3) forms.push(['missing middle name', [listed[0], last].join(' ')]);
  const middle = listed[1]!.replace(/^bin /, '');
  if (listed.length >= 3) forms.push(['initial', [listed[0], `${middle[0]}.`, ...listed.slice(2)].join(' ')]);
  if (person.style === 'ru') forms.push(['cyrillic', [person.parts[0]!.native, person.parts[person.parts.length - 1]!.native].join(' ')]);
  if (person.style === 'ar') {
    forms.push(['arabic script', person.parts.map((p) => p.native).join(' ')]);
    forms.push(['particles', listed.map((w) => w.replace(/^al-/, 'El ').replace(/^bin /, 'Ibn ')).join(' ')]);
    forms.push(['honorific', `Sheikh ${listed.join(' ')}`]);
  }
  if (person.style === 'other') forms.push(['accents and case', listed.join(' ').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase()]);
  const chosen = forms.sort(() => random() - 0.5).slice(0, 2);
  for (const [variant, query] of chosen) variants.push({ query, list_id: id, variant });
}

function arabicPerson(): Person {
  const first = part(pick(AR_FIRST));
  const father = part(pick(AR_FIRST));
  const family = part(pick(AR_FAMILY));
  const fatherPart = { native: `بن ${father.native}`, listed: `bin ${father.listed}`, others: father.others.map((o) => `bin ${o}`) };
  return { script: 'ar', style: 'ar', parts: random() < 0.5 ? [first, fatherPart, family] : [first, father, family] };
}
function russianPerson(): Person {
  const first = part(pick(RU_FIRST));
  const father = pick(RU_FIRST);
  const family = part(pick(RU_FAMILY));
  const patronymic = `${father[1]!.replace(/(iy|y|i)$/, '')}ovich`;
  return { script: 'ru', style: 'ru', parts: [first, { native: '', listed: patronymic, others: [] }, family] };
}
function otherPerson(): Person {
  const pools = [[FA_FIRST, FA_FAMILY], [ES_FIRST, ES_FAMILY], [AF_FIRST, AF_FAMILY]] as const;
  const [f, l] = pick(pools);
  const family = pick(l);
  const parts = [pick(f), ...(f === ES_FIRST ? [family, pick(l)] : [family])];
  return { script: 'latin', style: 'other', parts: parts.flatMap((p) => p.split(' ')).map((p) => ({ native: '', listed: p, others: [] })) };
}

// The labelled entries, then filler (no variants) drawn from the same pools.
for (let i = 0; i < 2_400; i++) {
  const labelled = i < 260;
  const id = `SDN-${10_000 + i}`;
  const r = random();
  const person = r < 0.45 ? arabicPerson() : r < 0.75 ? russianPerson() : otherPerson();
  const countries = person.style === 'ar' ? [pick(COUNTRIES_AR)] : person.style === 'ru' ? ['RU'] : [pick(['IR', 'MX', 'CO', 'CD', 'RW'])];
  addPerson(id, person, date(1945, 1990), countries, pick(['SDGT', 'RUSSIA-EO14024', 'SDNTK', 'DRCONGO', 'IRGC']), labelled);
}
for (let i = 0; i < 400; i++) {
  const id = `SDN-${20_000 + i}`;
  const name = `${pick(ORG_WORDS)} ${pick(ORG_TRADE)}`;
  const [form, long] = pick(ORG_FORM);
  entries.push({ source: 'ofac_sdn', list_id: id, names: [`${name.toUpperCase()} ${form}`], kind: 'organisation', countries: [pick(['AE', 'RU', 'IR', 'HK', 'TR'])], programmes: ['SDGT'] });
  if (i < 60) variants.push({ query: `${name} ${long}`, list_id: id, variant: 'company form' });
}
for (const v of variants.slice(0, 40)) v.birth_date = entries.find((e) => e.list_id === v.list_id)!.birth_dates?.[0]?.padEnd(10, '-01-01');

// Ordinary people of France, Gabon, Rwanda and their neighbours.
const ORDINARY: Record<string, [string[], string[]]> = {
  FR: [['Jean', 'Marie', 'Pierre', 'Sophie', 'Nicolas', 'Camille', 'Julien', 'Claire', 'Thomas', 'Isabelle', 'Jean-Pierre', 'Marie-Claire', 'Nathalie', 'Philippe', 'Sandrine', 'Louis', 'Chloé', 'Hugo', 'Léa', 'François', 'Hélène', 'Karim', 'Yasmine', 'Mehdi', 'Sarah', 'Emma', 'Lucas', 'Inès', 'Antoine', 'Élodie'],
    ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefèvre', 'Michel', 'Garcia', 'David', 'Bertrand', 'Roux', 'Vincent', 'Fournier', 'Morel', 'Girard', 'André', 'Mercier', 'Dupont', 'Lambert', 'Bonnet', 'François', 'Martinez', 'Legrand', 'Benali', 'Haddad', 'Mansouri', 'Nguyen', 'Da Silva', 'Le Gall']],
  GA: [['Jean', 'Marie', 'Serge', 'Ghislain', 'Prisca', 'Larissa', 'Brice', 'Ulrich', 'Aimé', 'Christelle', 'Rodrigue', 'Armel', 'Nadège', 'Fabrice', 'Sylvie', 'Landry', 'Ali', 'Yannick'],
    ['Nguema', 'Mba', 'Ndong', 'Ondo', 'Moussavou', 'Mboumba', 'Nzamba', 'Koumba', 'Bivigou', 'Mouele', 'Obame', 'Ella', 'Essono', 'Mintsa', 'Ekomi', 'Mabika', 'Nziengui', 'Ognane', 'Boussougou', 'Makaya', 'Mounguengui', 'Oyane']],
  RW: [['Jean de Dieu', 'Aimable', 'Claudine', 'Emmanuel', 'Olivier', 'Eric', 'Diane', 'Alice', 'Jean Bosco', 'Vestine', 'Patrick', 'Divine', 'Innocent', 'Grace', 'Fabrice', 'Aline', 'Théoneste', 'Josiane'],
    ['Uwimana', 'Mukamana', 'Habimana', 'Niyonzima', 'Nshimiyimana', 'Mugisha', 'Uwase', 'Ishimwe', 'Iradukunda', 'Hakizimana', 'Ndayisaba', 'Nsengimana', 'Bizimana', 'Tuyishime', 'Mukeshimana', 'Nyiraneza', 'Habyarimana', 'Twagirayezu', 'Munyaneza', 'Uwera']],
  CM: [['Paul', 'Samuel', 'Hamadou', 'Aissatou', 'Oumarou', 'Blaise', 'Hervé', 'Chantal', 'Moussa', 'Aboubakar', 'Ibrahim', 'Fadimatou', 'Joseph', 'Rose', 'Cyrille', 'Arlette'],
    ['Nkoulou', 'Mbarga', 'Ngono', 'Fotso', 'Tchoumi', 'Kamga', 'Njoya', 'Ngassa', 'Abega', 'Etoundi', 'Fouda', 'Owona', 'Mballa', 'Essomba', 'Bello', 'Tchatchoua', 'Ndjock', 'Manga', 'Ayissi', 'Nana']],
  CG: [['Arsène', 'Gildas', 'Prince', 'Merveille', 'Dieudonné', 'Christ', 'Bienvenu', 'Clarisse', 'Exaucé', 'Rodrigue'],
    ['Mabiala', 'Loemba', 'Malonga', 'Moukoko', 'Massamba', 'Nkounkou', 'Mavoungou', 'Bouanga', 'Samba', 'Ikonga', 'Okemba', 'Ngoma']],
  CD: [['Jean-Marie', 'Héritier', 'Patience', 'Fiston', 'Gloire', 'Jonathan', 'Chancelle', 'Tresor', 'Christian', 'Béatrice', 'Junior', 'Papy', 'Mamie', 'Didier'],
    ['Mukendi', 'Tshibanda', 'Ilunga', 'Kasongo', 'Mbuyi', 'Kalala', 'Ngoy', 'Lukusa', 'Mutombo', 'Kabongo', 'Mwamba', 'Nsimba', 'Makiadi', 'Tshisekedi', 'Kanku', 'Mulumba', 'Banza', 'Kabeya', 'Lumbala', 'Mpoyi']],
  BI: [['Jean Claude', 'Pacifique', 'Désiré', 'Ange', 'Évariste', 'Jeanine', 'Gilbert', 'Consolata'],
    ['Niyonkuru', 'Nduwimana', 'Irakoze', 'Havyarimana', 'Bigirimana', 'Ntakirutimana', 'Ndikumana', 'Niyongabo', 'Hakizimana', 'Nimbona']],
  UG: [['Moses', 'Esther', 'Ronald', 'Grace', 'Brian', 'Sarah', 'Isaac', 'Joan', 'Denis', 'Florence', 'Ivan', 'Harriet'],
    ['Okello', 'Nakato', 'Namubiru', 'Ssempala', 'Kato', 'Babirye', 'Mukasa', 'Ochieng', 'Atwine', 'Tumusiime', 'Byaruhanga', 'Kiggundu', 'Nansubuga', 'Opio', 'Akello']],
  TZ: [['Juma', 'Mohamed', 'Hassan', 'Amina', 'Fatuma', 'Neema', 'Baraka', 'Rehema', 'Salim', 'Zawadi', 'Ally', 'Halima', 'Said', 'Mwanaisha'],
    ['Mwakyusa', 'Mollel', 'Massawe', 'Swai', 'Kimaro', 'Juma', 'Bakari', 'Mrisho', 'Mushi', 'Lyimo', 'Mfinanga', 'Shirima', 'Kombo', 'Mwinyi', 'Msuya', 'Chande']],
  GQ: [['Teodoro', 'Maria Jesus', 'Santiago', 'Pilar', 'Agustin', 'Lucia', 'Crisantos', 'Remedios', 'Anacleto', 'Purificacion'],
    ['Nsue', 'Mangue', 'Esono', 'Obono', 'Nchama', 'Eyama', 'Edu', 'Asumu', 'Bindang', 'Ondo', 'Mbasogo', 'Mikue', 'Ela', 'Engonga']],
};
const ordinary: { name: string; birth_date: string; country: string }[] = [];
const countries = Object.keys(ORDINARY);
for (let i = 0; i < 2_200; i++) {
  const country = countries[i % countries.length]!;
  const [firsts, lasts] = ORDINARY[country]!;
  let name = `${pick(firsts)} ${pick(lasts)}`;
  if (random() < 0.25) name = `${pick(firsts)} ${name}`;
  if (random() < 0.1) name = `${name} ${pick(lasts)}`;
  if (random() < 0.3) name = name.toUpperCase();
  ordinary.push({ name, birth_date: date(1950, 2006), country });
}

const json = (x: unknown) => `${JSON.stringify(x, null, 0).replace(/\},\{/g, '},\n{')}\n`;
writeFileSync(path.join(OUT, 'listed.json'), json(entries));
writeFileSync(path.join(OUT, 'variants.json'), json(variants));
writeFileSync(path.join(OUT, 'ordinary.json'), json(ordinary));
console.log(`${entries.length} entries, ${variants.length} variants, ${ordinary.length} ordinary names`);
