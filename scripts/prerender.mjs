// Writes dist/pages/{lng}/{page}.html: dist/web/index.html with each public page's markup (a
// signed-in page's heading), title, description and language filled in (src/web/prerender.tsx, built to dist/prerender by `vite build
// --ssr`). The server sends these for the public routes (src/server/app.ts). Runs in `npm run build`.
import { mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

const { PRERENDERED_PAGES, renderPage } = await import(path.resolve('dist/prerender/prerender.js'));
const OUT = 'dist/pages';
const template = readFileSync('dist/web/index.html', 'utf8');

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Replaces what `pattern` finds in `html`; a template that no longer matches fails the build. */
function fill(html, pattern, replacement) {
  if (!pattern.test(html)) throw new Error(`prerender: dist/web/index.html has no match for ${pattern}`);
  return html.replace(pattern, () => replacement);
}

rmSync(OUT, { recursive: true, force: true });
let count = 0;
for (const lng of ['en', 'fr']) {
  mkdirSync(path.join(OUT, lng), { recursive: true });
  for (const { path: route, fileName } of PRERENDERED_PAGES) {
    const page = await renderPage(route, lng);
    let html = fill(template, /<html lang="[^"]*">/, `<html lang="${lng}">`);
    html = fill(html, /<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`);
    html = fill(html, /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/, `<meta name="description" content="${escapeHtml(page.description)}" />`);
    // data-lng: the browser hydrates a whole page prerendered in that language (src/web/main.tsx).
    const root = page.whole ? `<div id="root" data-lng="${lng}">` : '<div id="root">';
    html = fill(html, /<div id="root">[\s\S]*?<\/div>(?=\s*<noscript>)/, `${root}${page.html}</div>`);
    writeFileSync(path.join(OUT, lng, `${fileName}.html`), html);
    count++;
  }
}
console.log(`prerendered ${count} pages in ${OUT}`);
