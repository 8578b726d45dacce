import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags a closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** A fresh page (own cookies and storage) in English unless told otherwise. */
export async function newPage(browser: Browser, opts: { locale?: string; width?: number } = {}): Promise<Page> {
  const context = await browser.newContext({
    locale: opts.locale ?? 'en-US',
    viewport: { width: opts.width ?? 1280, height: 900 },
    acceptDownloads: true,
  });
  return context.newPage();
}
