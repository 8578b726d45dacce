import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** Loads axe-core into every document the page opens from now on. */
export async function withAxe(page: Page): Promise<Page> {
  await page.context().addInitScript({ content: axe.source });
  return page;
}

/** axe-core's serious and critical findings on the page as it is now, one line each (rule, help, elements). */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} → ${v.targets.join(', ')}`);
}
