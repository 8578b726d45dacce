import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';

/** Public pages fetched without the query client (see `page(..., { query: false })` in the router). */
const NO_QUERY_ROUTES = ['/', '/fees'];

/** Public routes (they read the `public` namespace) and their page modules, as in src/web/app/router.tsx. */
const PUBLIC_ROUTE_MODULES: Record<string, string> = {
  '/': 'features/home/home-page.tsx',
  '/fees': 'features/public/fees-page.tsx',
  '/faq': 'features/public/faq-page.tsx',
  '/support': 'features/public/support-page.tsx',
  '/privacy': 'features/public/privacy-page.tsx',
  '/terms': 'features/public/terms-page.tsx',
  '/compliance': 'features/public/compliance-page.tsx',
};

/**
 * Emits /assets/boot-[hash].js, run (deferred) before the app: it detects the language exactly as
 * src/web/lib/i18n-detector.ts does and preloads that language's translation files (and English,
 * the fallback), plus the current public page's code. Without it, those requests would only start once
 * the app's JavaScript has run: one more round trip before anything useful shows (Lighthouse, issue 6).
 * A file and not an inline script: the server's Content-Security-Policy allows 'self' scripts only.
 */
function bootPreload(): Plugin {
  return {
    name: 'boot-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      const html = bundle['index.html'];
      if (!entry || !html || html.type !== 'asset') return;
      const already = new Set([entry.fileName, ...entry.imports]);
      const chunkOf = (module: string) => chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith(`src/web/${module}`));
      /** A page chunk and what it imports, minus what the entry already loads. */
      const filesFor = (modules: string[]) => {
        const files: string[] = [];
        const walk = (fileName: string) => {
          if (already.has(fileName) || files.includes(fileName)) return;
          files.push(fileName);
          const c = bundle[fileName];
          if (c && c.type === 'chunk') c.imports.forEach(walk);
        };
        for (const m of modules) {
          const c = chunkOf(m);
          if (c) walk(c.fileName);
        }
        return files.map((f) => `/${f}`);
      };
      const routeFiles: Record<string, string[]> = {};
      for (const [route, module] of Object.entries(PUBLIC_ROUTE_MODULES)) {
        routeFiles[route] = filesFor(NO_QUERY_ROUTES.includes(route) ? [module] : [module, 'lib/query-client.tsx']);
      }
      const code = `(function(){try{
var d=document,w=window,c=[],q,m;
function s(f){try{return f()}catch(e){return null}}
c.push(s(function(){return new URLSearchParams(location.search).get('lng')}));
c.push(s(function(){m=d.cookie.match(/(?:^|;\\s*)i18next=([^;]*)/);return m?decodeURIComponent(m[1]):null}));
c.push(s(function(){return w.localStorage.getItem('i18nextLng')}));
c.push(s(function(){return w.sessionStorage.getItem('i18nextLng')}));
c=c.concat(s(function(){return [].concat(navigator.languages||[],navigator.language)})||[]);
c.push(d.documentElement.getAttribute('lang'));
var lng='en';
for(var i=0;i<c.length;i++){q=String(c[i]||'').trim().toLowerCase().split(/[-_]/)[0];if(q==='en'||q==='fr'){lng=q;break}}
var p=location.pathname.replace(/\\/+$/,'')||'/';
var ns=['common'];if(${JSON.stringify(Object.keys(PUBLIC_ROUTE_MODULES))}.indexOf(p)>=0)ns.push('public');
var ls=lng==='en'?['en']:[lng,'en'];
function add(r,h,a){var e=d.createElement('link');e.rel=r;e.href=h;if(a){e.as=a;e.crossOrigin='anonymous'}d.head.appendChild(e)}
ls.forEach(function(l){ns.forEach(function(n){add('preload','/locales/'+l+'/'+n+'.json','fetch')})});
(${JSON.stringify(routeFiles)}[p]||[]).forEach(function(f){add('modulepreload',f)});
}catch(e){}})();`;
      const ref = this.emitFile({ type: 'asset', name: 'boot.js', source: code });
      const src = `/${this.getFileName(ref)}`;
      html.source = String(html.source).replace('<head>', `<head>\n    <script src="${src}" defer></script>`);
    },
  };
}

// The web app is built to dist/web and served by the Node server (src/server) with a history
// fallback. Translation files are NOT copied: the server serves src/locales at /locales/{lng}/{ns}.json.
export default defineConfig(({ isSsrBuild }) => ({
  root: '.',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), bootPreload()],
  resolve: {
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(new URL('./src/web/lib/use-sync-external-store-shim.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // The SSR build (src/web/prerender.tsx, run once at build time) needs no copy of public/.
    copyPublicDir: !isSsrBuild,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What every page needs, in one chunk: compresses better than five small ones
            // (the home page budget is 120 KB gzip, issue 6). Nothing route-specific goes here.
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|use-sync-external-store|html-parse-stringify|void-elements)[\\/]/,
            },
            // The small modules the home page and /fees share with the money screens (prices,
            // corridors, plain form parts), in one file: nine tiny files cost more, compressed.
            {
              name: 'pricing',
              test: /src[\\/](core[\\/](money|channels|fees|rates)\.ts|web[\\/]lib[\\/](format|use-json)\.ts|web[\\/]components[\\/]ui[\\/](alert|card|input|label|select)\.tsx)$/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/locales': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/locales': { target: apiTarget, changeOrigin: false },
    },
  },
}));
