import { clsx, type ClassValue } from 'clsx';

/*
 * A small Tailwind class merger: when two utilities of the same group (same variants) are given,
 * the later one wins, like tailwind-merge for the groups our components use. tailwind-merge
 * itself costs ~8.5 KB gzip on every page, too much for the home page budget
 * (docs/decisions/005-web-shell-budget.md).
 * Classes outside the known groups are always kept.
 */

/** Utilities whose group is their prefix: `px-3` is in group `px`, `min-h-9` in `min-h`. Longest first. */
const PREFIXES =
  'underline-offset pointer-events scroll-mt scroll-mb scroll-mx scroll-my scroll-m grid-cols col-start col-end col-span row-start row-end row-span overflow-x overflow-y translate-x translate-y inset-x inset-y min-w min-h max-w max-h space-x space-y gap-x gap-y whitespace overflow opacity leading tracking items justify-self justify-items justify self inset top right bottom left size cursor shrink grow basis gap px py pt pr pb pl ps pe mx my mt mr mb ml ms me z w h p m'.split(
    ' ',
  );
const DISPLAY = /^(block|inline-block|inline|flex|inline-flex|grid|inline-grid|contents|hidden|table|inline-table|table-(row|cell|caption|column|row-group|header-group|footer-group|column-group)|flow-root|list-item)$/;
const POSITION = /^(static|fixed|absolute|relative|sticky)$/;

function findGroup(base: string): string | null {
  const b = base.replace(/^!|!$/g, '').replace(/^-/, '');
  if (DISPLAY.test(b)) return 'display';
  if (POSITION.test(b)) return 'position';
  if (b === 'truncate') return 'text-overflow';
  let m: RegExpMatchArray | null;
  // An arbitrary length (text-[10px], text-[length:var(--x)]) is a size like text-sm, not a colour.
  if (/^text-\[(?:length:|[\d.]+(?:px|r?em|%|vw|vh|ch|pt)\])/.test(b)) return 'text-size';
  if ((m = b.match(/^text-(?:(xs|sm|base|lg|[2-9]?xl)(\/.*)?|(left|center|right|justify|start|end)|(wrap|nowrap|balance|pretty|ellipsis|clip)|.+)$/)))
    return m[1] ? 'text-size' : m[3] ? 'text-align' : m[4] ? 'text-wrap' : 'text-color';
  if (/^font-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/.test(b)) return 'font-weight';
  if (/^bg-(linear|radial|conic|gradient|none)/.test(b)) return 'bg-image';
  if (b.startsWith('bg-')) return 'bg-color';
  if (/^flex-(row|col)(-reverse)?$/.test(b)) return 'flex-dir';
  if (/^flex-(wrap|nowrap|wrap-reverse)$/.test(b)) return 'flex-wrap';
  if (/^flex-(1|auto|initial|none)$/.test(b)) return 'flex';
  if (/^font-(sans|serif|mono)$/.test(b)) return 'font-family';
  if (/^fill-/.test(b)) return 'fill';
  if (/^object-(contain|cover|fill|none|scale-down)$/.test(b)) return 'object-fit';
  if (/^object-(bottom|center|left|right|top|left-bottom|left-top|right-bottom|right-top)$/.test(b)) return 'object-position';
  if (/^stroke-(?!\d)/.test(b)) return 'stroke';
  if (/^transition(-(all|colors|opacity|shadow|transform|none))?$/.test(b)) return 'transition';
  if (b.startsWith('animate-')) return 'animate';
  if (/^align-(baseline|top|middle|bottom|text-top|text-bottom|sub|super)$/.test(b)) return 'vertical-align';
  if ((m = b.match(/^rounded-(tl|tr|br|bl|ss|se|es|ee|[trblse])(-.+)?$/))) return `rounded-${m[1]}`;
  if ((m = b.match(/^border-([xytrblse])(-\d+)?$/))) return `border-w-${m[1]}`;
  if ((m = b.match(/^border-([xytrblse])-(?!(solid|dashed|dotted|double|hidden|none)$).+$/))) return `border-color-${m[1]}`;
  if (/^rounded(-(none|xs|sm|md|lg|[2-4]?xl|full))?$/.test(b)) return 'rounded';
  if (/^shadow(-(2xs|xs|sm|md|lg|x?l|2xl|none))?$/.test(b)) return 'shadow';
  if (/^border(-\d+)?$/.test(b)) return 'border-w';
  if (/^border-(solid|dashed|dotted|double|hidden|none)$/.test(b)) return 'border-style';
  if (/^border-(?!([xytrblse]|\d+)(-|$))/.test(b)) return 'border-color';
  if ((m = b.match(/^divide-([xy])(-reverse)?(-\d+)?$/))) return `divide-${m[1]}${m[2] ?? ''}`;
  if (/^divide-(solid|dashed|dotted|double|none)$/.test(b)) return 'divide-style';
  if (b.startsWith('divide-')) return 'divide-color';
  for (const p of PREFIXES) if (b.startsWith(`${p}-`)) return p;
  return null;
}

/** Groups by utility: the lists a page draws are made of the same few hundred utilities. */
const groups = new Map<string, string | null>();

function groupOf(base: string): string | null {
  let group = groups.get(base);
  if (group === undefined) {
    if (groups.size >= 1000) groups.clear();
    groups.set(base, (group = findGroup(base)));
  }
  return group;
}

const SIDES = 'xytrblse';

/** A later utility of the key group also overrides earlier ones of these groups. */
const OVERRIDES: Record<string, string[]> = {
  p: ['px', 'py', 'pt', 'pr', 'pb', 'pl', 'ps', 'pe'],
  px: ['pr', 'pl', 'ps', 'pe'],
  py: ['pt', 'pb'],
  m: ['mx', 'my', 'mt', 'mr', 'mb', 'ml', 'ms', 'me'],
  'scroll-m': ['scroll-mx', 'scroll-my', 'scroll-mt', 'scroll-mb'],
  'scroll-my': ['scroll-mt', 'scroll-mb'],
  mx: ['mr', 'ml', 'ms', 'me'],
  my: ['mt', 'mb'],
  size: ['w', 'h'],
  inset: ['inset-x', 'inset-y', 'top', 'right', 'bottom', 'left'],
  'inset-x': ['right', 'left'],
  'inset-y': ['top', 'bottom'],
  gap: ['gap-x', 'gap-y'],
  // A font size sets its own line height in Tailwind 4.
  'text-size': ['leading'],
  overflow: ['overflow-x', 'overflow-y'],
  // flex-1, flex-auto… set grow, shrink and basis at once.
  flex: ['grow', 'shrink', 'basis'],
  rounded: ['t', 'r', 'b', 'l', 's', 'e', 'tl', 'tr', 'br', 'bl', 'ss', 'se', 'es', 'ee'].map((side) => `rounded-${side}`),
  'border-w': [...SIDES].map((side) => `border-w-${side}`),
  'border-color': [...SIDES].map((side) => `border-color-${side}`),
};

/** Splits `sm:hover:px-3` into `sm:hover:` and `px-3` (colons inside brackets are not variants). */
function splitVariants(token: string): [string, string] {
  let depth = 0;
  let cut = -1;
  for (let i = 0; i < token.length; i++) {
    const c = token[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ':' && depth === 0) cut = i;
  }
  return [token.slice(0, cut + 1), token.slice(cut + 1)];
}

/** Merges class lists: later Tailwind utilities override earlier ones of the same group. */
export function mergeClasses(classes: string): string {
  const tokens = classes.split(/\s+/).filter(Boolean);
  const seen = new Set<string>();
  const kept: string[] = [];
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!;
    const [variants, base] = splitVariants(token);
    const group = groupOf(base);
    const key = group === null ? `=${token}` : `${variants}${/^!|!$/.test(base) ? '!' : ''}|`;
    if (seen.has(group === null ? key : key + group)) continue;
    if (group === null) seen.add(key);
    else for (const g of [group, ...(OVERRIDES[group] ?? [])]) seen.add(key + g);
    kept.push(token);
  }
  return kept.reverse().join(' ');
}

/** Merged lists by input: components ask for the same few hundred lists on every render. */
const merged = new Map<string, string>();

/** Joins class names and lets later Tailwind utilities override earlier ones (shadcn's `cn`). */
export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs);
  let result = merged.get(classes);
  if (result === undefined) {
    if (merged.size >= 1000) merged.clear();
    merged.set(classes, (result = mergeClasses(classes)));
  }
  return result;
}
