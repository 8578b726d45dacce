import { clsx, type ClassValue } from 'clsx';

/*
 * A small Tailwind class merger: when two utilities of the same group (same variants) are given,
 * the later one wins, like tailwind-merge for the groups our components use. tailwind-merge
 * itself costs ~8.5 KB gzip on every page, too much for the home page budget (issue 6).
 * Classes outside the known groups are always kept.
 */
const GROUPS: [RegExp, string | ((m: RegExpMatchArray) => string)][] = [
  [/^(block|inline-block|inline|flex|inline-flex|grid|inline-grid|contents|hidden|table|flow-root|list-item)$/, 'display'],
  [/^(static|fixed|absolute|relative|sticky)$/, 'position'],
  [/^p([xytrblse]?)-/, (m) => `p${m[1]}`],
  [/^m([xytrblse]?)-/, (m) => `m${m[1]}`],
  [/^(size|min-w|min-h|max-w|max-h|w|h)-/, (m) => m[1]!],
  [/^gap(-[xy])?-/, (m) => `gap${m[1] ?? ''}`],
  [/^space-([xy])-/, (m) => `space-${m[1]}`],
  [/^text-(xs|sm|base|lg|xl|[2-9]xl)(\/.*)?$/, 'text-size'],
  [/^text-(left|center|right|justify|start|end)$/, 'text-align'],
  [/^text-(wrap|nowrap|balance|pretty|ellipsis|clip)$/, 'text-wrap'],
  [/^text-/, 'text-color'],
  [/^font-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/, 'font-weight'],
  [/^bg-(linear|radial|conic|gradient|none)/, 'bg-image'],
  [/^bg-/, 'bg-color'],
  [/^justify-(start|end|center|between|around|evenly|stretch|normal)$/, 'justify'],
  [/^items-/, 'items'],
  [/^self-/, 'self'],
  [/^flex-(row|col)(-reverse)?$/, 'flex-dir'],
  [/^flex-(wrap|nowrap|wrap-reverse)$/, 'flex-wrap'],
  [/^(flex-1|flex-auto|flex-initial|flex-none)$/, 'flex'],
  [/^rounded(-(none|xs|sm|md|lg|xl|2xl|3xl|4xl|full))?$/, 'rounded'],
  [/^border(-[0-9]+)?$/, 'border-w'],
  [/^border-(solid|dashed|dotted|double|hidden|none)$/, 'border-style'],
  [/^border-(?!(x|y|t|r|b|l|s|e)(-|$))/, 'border-color'],
  [/^shadow(-(2xs|xs|sm|md|lg|xl|2xl|none))?$/, 'shadow'],
  [/^whitespace-/, 'whitespace'],
  [/^overflow-([xy]-)?/, (m) => `overflow${m[1] ?? ''}`],
  [/^opacity-/, 'opacity'],
  [/^leading-/, 'leading'],
  [/^tracking-/, 'tracking'],
  [/^(inset-x|inset-y|inset|top|right|bottom|left)-/, (m) => m[1]!],
  [/^z-/, 'z'],
  [/^grid-cols-/, 'grid-cols'],
  [/^col-span-/, 'col-span'],
  [/^shrink(-|$)/, 'shrink'],
  [/^grow(-|$)/, 'grow'],
  [/^truncate$/, 'text-overflow'],
  [/^pointer-events-/, 'pointer-events'],
  [/^cursor-/, 'cursor'],
  [/^underline-offset-/, 'underline-offset'],
];

/** A later utility of the key group also overrides earlier ones of these groups. */
const OVERRIDES: Record<string, string[]> = {
  p: ['px', 'py', 'pt', 'pr', 'pb', 'pl', 'ps', 'pe'],
  px: ['pr', 'pl', 'ps', 'pe'],
  py: ['pt', 'pb'],
  m: ['mx', 'my', 'mt', 'mr', 'mb', 'ml', 'ms', 'me'],
  mx: ['mr', 'ml', 'ms', 'me'],
  my: ['mt', 'mb'],
  size: ['w', 'h'],
  inset: ['inset-x', 'inset-y', 'top', 'right', 'bottom', 'left'],
  'inset-x': ['right', 'left'],
  'inset-y': ['top', 'bottom'],
  gap: ['gap-x', 'gap-y'],
};

function splitVariants(token: string): [string, string] {
  let depth = 0;
  let cut = -1;
  for (let i = 0; i < token.length; i++) {
    const c = token[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ':' && depth === 0) cut = i;
  }
  return cut === -1 ? ['', token] : [token.slice(0, cut + 1), token.slice(cut + 1)];
}

function groupOf(base: string): string | null {
  const b = base.replace(/^!|!$/g, '').replace(/^-/, '');
  for (const [re, name] of GROUPS) {
    const m = b.match(re);
    if (m) return typeof name === 'string' ? name : name(m);
  }
  return null;
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
    if (group === null) {
      if (!seen.has(`=${token}`)) kept.push(token);
      seen.add(`=${token}`);
      continue;
    }
    const important = base.startsWith('!') || base.endsWith('!') ? '!' : '';
    const key = `${variants}${important}|${group}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const g of OVERRIDES[group] ?? []) seen.add(`${variants}${important}|${g}`);
    kept.push(token);
  }
  return kept.reverse().join(' ');
}

/** Joins class names and lets later Tailwind utilities override earlier ones (shadcn's `cn`). */
export function cn(...inputs: ClassValue[]): string {
  return mergeClasses(clsx(inputs));
}
