import path from 'node:path';
import type { Page } from 'playwright-core';

/**
 * A full-page screenshot into SCREENSHOT_DIR when it is set, to look at what a person sees;
 * nothing otherwise. An open dialog taller than the window is shown whole: the window grows to
 * it for the shot, then goes back.
 */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  const viewport = page.viewportSize()!;
  const dialog = page.getByRole('dialog').last();
  const tall = await dialog.count() ? await dialog.evaluate((el) => el.scrollHeight + 200) : 0;
  if (tall > viewport.height) await page.setViewportSize({ width: viewport.width, height: tall });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  if (tall > viewport.height) await page.setViewportSize(viewport);
}
