import { describe, expect, it } from 'vitest';
import { cn, mergeClasses } from './utils';

describe('cn', () => {
  it('joins conditional classes', () => {
    const off = (x: string): string | false => x.length > 5 && x;
    expect(cn('a', off('b'), undefined, { c: true, d: false })).toBe('a c');
  });

  it('lets a later utility of the same group win', () => {
    expect(cn('px-3 py-2 text-sm', 'py-4 text-lg')).toBe('px-3 py-4 text-lg');
    expect(cn('bg-primary text-white', 'bg-red-50 text-red-900')).toBe('bg-red-50 text-red-900');
    expect(cn('inline-flex justify-center', 'hidden justify-start')).toBe('hidden justify-start');
    expect(cn('h-10 w-full', 'size-4')).toBe('size-4');
  });

  it('lets a later vertical alignment win (the random comparison with tailwind-merge found align-middle kept beside align-top)', () => {
    expect(cn('inline-block align-middle', 'align-top')).toBe('inline-block align-top');
  });

  it('keeps text size and text colour apart', () => {
    expect(cn('text-sm text-slate-700', 'text-brand-800')).toBe('text-sm text-brand-800');
  });

  it('keeps different variants apart', () => {
    expect(cn('hover:bg-muted bg-white', 'bg-black')).toBe('hover:bg-muted bg-black');
    expect(cn('sm:p-6 p-5', 'sm:pt-0')).toBe('sm:p-6 p-5 sm:pt-0');
  });

  it('a shorthand overrides earlier longhands, not later ones', () => {
    expect(mergeClasses('pt-2 px-4 p-3')).toBe('p-3');
    expect(mergeClasses('p-3 pt-0')).toBe('p-3 pt-0');
  });

  it('keeps arbitrary values and unknown classes', () => {
    expect(cn('grid-cols-[1fr_2fr] data-[state=active]:bg-white foo', 'foo bar')).toBe('grid-cols-[1fr_2fr] data-[state=active]:bg-white foo bar');
  });

  it('tells border width, style and colour apart', () => {
    expect(cn('border border-input', 'border-2 border-red-300 border-dashed')).toBe('border-2 border-red-300 border-dashed');
    expect(cn('border-t border-border', 'border-input')).toBe('border-t border-input');
  });
});

describe('cn groups', () => {
  it('handles prefixes, sizes and negative values', () => {
    expect(cn('min-h-9 px-3', 'min-h-0')).toBe('px-3 min-h-0');
    expect(cn('-m-1 m-2')).toBe('m-2');
    expect(cn('rounded-md', 'rounded-full')).toBe('rounded-full');
    expect(cn('shadow-sm', 'shadow-lg')).toBe('shadow-lg');
    expect(cn('text-left text-lg', 'text-center')).toBe('text-lg text-center');
    expect(cn('font-medium', 'font-bold')).toBe('font-bold');
    expect(cn('flex-col flex-1', 'flex-row')).toBe('flex-1 flex-row');
    expect(cn('w-full max-w-sm', 'max-w-lg')).toBe('w-full max-w-lg');
    expect(cn('overflow-hidden overflow-x-auto')).toBe('overflow-hidden overflow-x-auto');
  });
});
