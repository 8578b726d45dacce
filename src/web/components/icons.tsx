import { createElement, type ReactNode, type SVGProps } from 'react';

/*
 * The shared icons, as plain SVG (paths from Lucide, ISC licence, https://lucide.dev); the shell's
 * own are in app/icons.tsx, the home page's in features/home/icons.tsx. Importing lucide-react there would add its runtime to the home page, which
 * must stay under 120 KB of JavaScript (docs/decisions/005-web-shell-budget.md); feature pages
 * use lucide-react freely.
 * Same look as Lucide: 24×24, stroke currentColor, width 2, round caps. Decorative by default.
 * No xmlns (an <svg> in an HTML page is SVG without it) nor focusable="false" (for Internet
 * Explorer, which cannot run this ES2022 build).
 */
export type IconProps = SVGProps<SVGSVGElement>;

/**
 * An icon drawing `parts` in order (Lucide's look): a string is a `<path>`'s `d`, anything else is
 * drawn as given. Lazy views keep theirs beside them, off the home page.
 */
export function icon(...parts: (ReactNode | string)[]) {
  // Given one by one (not as a list), the parts need no keys.
  return function Icon({ className = 'size-4', ...props }: IconProps) {
    return createElement(
      'svg',
      { viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': 'true', className, ...props },
      ...parts.map((part) => (typeof part === 'string' ? <path d={part} /> : part)),
    );
  };
}

export const X = icon('M18 6 6 18', 'm6 6 12 12');
export const ChevronDown = icon('m6 9 6 6 6-6');
