import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The page's full width: more than the viewport's means sideways scrolling. */
export const scrollWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

/** The element lies within the screen's width (scrolled to vertically first, as a thumb would). */
export async function expectWithinWidth(page: Page, locator: Locator, label: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, label).not.toBeNull();
  expect(box!.x, `${label}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${label}: right edge`).toBeLessThanOrEqual(width);
}
