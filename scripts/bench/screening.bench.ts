// The matcher's budgets (docs/rules/screening.md): recall and alert rate on the labelled sets at
// the hold threshold (the tuning set's budgets; the held-out set's figures measured, by kind of
// variant, trivial ones apart), then one name screened against 50,000 listed names (aliases
// included): median ≤ 0.5 ms, p99 ≤ 2 ms; and the index's build time.
import { performance } from 'node:perf_hooks';
import { HOLD_THRESHOLD, buildIndex, screen, type ListedEntry } from '@core/screening/index.js';
import { measureAlerts, measureRecall, share, sum, type AlertResult, type RecallResult, type Tally } from '@core/screening/labelled-set.js';
import heldOutListedJson from '@core/screening/testdata/held-out/listed.json';
import sharedVocabulary from '@core/screening/testdata/held-out/shared-vocabulary.json';
import heldOutVariants from '@core/screening/testdata/held-out/variants.json';
import listedJson from '@core/screening/testdata/listed.json';
import ordinary from '@core/screening/testdata/ordinary.json';
import variants from '@core/screening/testdata/variants.json';
import { seededRandom } from '../screening/seeded-random.js';

const NAMES = 50_000;
const listed = listedJson as ListedEntry[];
const heldOutListed = heldOutListedJson as ListedEntry[];

const percent = (t: Tally) => (t.total ? `${(share(t) * 100).toFixed(1)} % (${t.found}/${t.total})` : '-');
const perThousand = (a: AlertResult) => `${(a.nameOnly * 1000).toFixed(2)} by name alone, ${(a.withQualifiers * 1000).toFixed(2)} with birth date and country`;
function printRecall(title: string, r: RecallResult, examplesPerKind: number): void {
  console.log(`${title}: recall ${percent(sum(r.trivial, r.hard))}; trivial ${percent(r.trivial)}, hard ${percent(r.hard)}`);
  for (const [kind, t] of [...r.byKind].sort(([a], [b]) => a.localeCompare(b))) console.log(`    ${kind.padEnd(52)} trivial ${percent(t.trivial).padEnd(20)} hard ${percent(t.hard)}`);
  for (const [kind] of r.byKind) for (const m of r.missed.filter((x) => x.variant === kind).slice(0, examplesPerKind)) console.log(`  missed (${m.variant}${m.trivial ? ', trivial' : ''}): ${m.query} → ${m.list_id}`);
}

// The tuning set against its own list; the held-out set against that list with its own entries.
const tuningIndex = buildIndex(listed);
const heldOutIndex = buildIndex([...listed, ...heldOutListed]);
console.log(`threshold ${HOLD_THRESHOLD}; trivial: equal to one of the entry's names once case, accents and word order are ignored`);
const tuning = measureRecall(tuningIndex, variants);
printRecall(`tuning set, generated beside the matcher (${variants.length} variants; budget ≥ 98 %)`, tuning, Infinity);
const heldOut = measureRecall(heldOutIndex, heldOutVariants);
printRecall(`held-out set, independent tables, never used to tune (${heldOutVariants.length} variants)`, heldOut, 3);
const plain = measureAlerts(tuningIndex, ordinary);
console.log(`alerts per 1,000 ordinary names (budget ≤ 1): ${perThousand(plain)}`);
for (const a of plain.alerts) console.log(`  alert: ${a.name} ~ ${a.listed} (${a.score})`);
const shared = measureAlerts(heldOutIndex, sharedVocabulary);
console.log(`alerts per 1,000 ordinary names made of the lists' own words (${sharedVocabulary.length}, against the list with the held-out entries): ${perThousand(shared)}`);
for (const a of shared.alerts) console.log(`  alert: ${a.name} ~ ${a.listed} (${a.score})`);
const seselj = heldOutListed.find((e) => e.names[0] === 'ŠEŠELJ, Vojislav')!;
const scoreOf = (name: string) => screen(heldOutIndex, { name }, { threshold: 0, limit: 50 }).find((m) => m.entry.list_id === seselj.list_id)?.score ?? 0;
console.log(`the family name alone against "${seselj.names[0]}": ${['Seselj', 'ŠEŠELJ'].map((q) => `${q} scores ${scoreOf(q).toFixed(2)}`).join(', ')}`);

// Filler up to 50,000 names, shaped like the lists' own: listed first names with made-up
// Arabic, Russian, Spanish and Chinese surnames, so rare words stay rare.
const { random, pick } = seededRandom(42);
const C = ['b', 't', 'j', 'h', 'kh', 'd', 'r', 'z', 's', 'sh', 'f', 'q', 'k', 'l', 'm', 'n', 'g', 'v', 'p', 'ch'];
const V = ['a', 'i', 'u', 'o', 'e'];
const root = (syllables: number) => Array.from({ length: syllables }, () => pick(C) + pick(V)).join('') + pick(C);
const SURNAMES = [
  () => `al-${root(2)}i`,
  () => `${root(1 + Math.floor(random() * 2))}${pick(['ov', 'ev', 'in', 'enko', 'sky', 'chuk'])}`,
  () => `${root(1 + Math.floor(random() * 2))}${pick(['ez', 'es', 'ado', 'ero', 'ana'])}`,
  () => `${pick(['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou'])} ${root(1)}`,
];
const firsts = listed.flatMap((e) => e.names.map((n) => n.split(',')[1]?.trim().split(' ')[0] ?? '')).filter(Boolean);
const entries = [...listed, ...heldOutListed];
let names = entries.reduce((n, e) => n + e.names.length, 0);
for (let i = 0; names < NAMES + 1_000; i++) {
  const first = pick(firsts);
  const last = pick(SURNAMES)();
  entries.push({ source: 'bench', list_id: `F-${i}`, names: [`${last.toUpperCase()}, ${first} ${pick(firsts)}`, `${first} ${last}`], kind: 'person', birth_dates: ['1970'], countries: ['SY'] });
  names += 2;
}
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const t0 = performance.now();
const index = buildIndex(entries);
const buildMs = performance.now() - t0;
global.gc?.();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1_048_576;
console.log(`index: ${entries.length} entries, ${index.names.length} names, ${index.words.length} words, built in ${buildMs.toFixed(0)} ms, about ${heapMb.toFixed(0)} MB of heap`);

const largeTuning = measureRecall(index, variants);
const largeHeldOut = measureRecall(index, heldOutVariants);
const largePlain = measureAlerts(index, ordinary);
const largeShared = measureAlerts(index, sharedVocabulary);
console.log(`  against this index: recall ${percent(sum(largeTuning.trivial, largeTuning.hard))} on the tuning set (hard ${percent(largeTuning.hard)}), ${percent(sum(largeHeldOut.trivial, largeHeldOut.hard))} on the held-out set (hard ${percent(largeHeldOut.hard)})`);
console.log(`  alerts per 1,000: ${perThousand(largePlain)} (plain ordinary names); ${perThousand(largeShared)} (the lists' own words)`);
for (const a of [...largePlain.alerts, ...largeShared.alerts]) console.log(`  alert: ${a.name} ~ ${a.listed} (${a.score})`);
const queries = [...variants.map((v) => ({ name: v.query })), ...ordinary.map((o) => ({ name: o.name, birth_date: o.birth_date, country: o.country }))];
for (const q of queries.slice(0, 500)) screen(index, q, { threshold: HOLD_THRESHOLD });
const times: number[] = [];
for (let round = 0; round < 3; round++) {
  for (const q of queries) {
    const s = performance.now();
    screen(index, q, { threshold: HOLD_THRESHOLD });
    times.push(performance.now() - s);
  }
}
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
console.log(`screening at the hold threshold, ${times.length} searches: median ${at(0.5).toFixed(3)} ms (budget ≤ 0.5), p99 ${at(0.99).toFixed(3)} ms (budget ≤ 2), max ${at(1).toFixed(3)} ms`);
const staff: number[] = [];
for (const q of queries.slice(0, 1000)) {
  const s = performance.now();
  screen(index, q, { limit: 10 });
  staff.push(performance.now() - s);
}
staff.sort((a, b) => a - b);
console.log(`staff search (best 10 from 0.5): median ${staff[500]!.toFixed(3)} ms, p99 ${staff[990]!.toFixed(3)} ms`);
const ok = share(sum(tuning.trivial, tuning.hard)) >= 0.98 && plain.nameOnly <= 0.001 && at(0.5) <= 0.5 && at(0.99) <= 2;
process.exit(ok ? 0 : 1);
