import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';

/** Public routes whose page reads the `public` namespace (see src/web/app/router.tsx). */
const PUBLIC_ROUTES = ['/', '/fees', '/faq', '/support', '/privacy', '/terms', '/compliance'];

/**
 * Emits /assets/boot-[hash].js, run (deferred) before the app: it detects the language exactly as
 * src/web/lib/i18n-detector.ts does and preloads that language's translation files (and English,
 * the fallback), plus the home page's code on `/`. Without it, those requests would only start once
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
      const home = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith('src/web/features/home/home-page.tsx'));
      const html = bundle['index.html'];
      if (!entry || !home || !html || html.type !== 'asset') return;
      const already = new Set([entry.fileName, ...entry.imports]);
      const homeFiles: string[] = [];
      const walk = (fileName: string) => {
        if (already.has(fileName) || homeFiles.includes(fileName)) return;
        homeFiles.push(fileName);
        const c = bundle[fileName];
        if (c && c.type === 'chunk') c.imports.forEach(walk);
      };
      walk(home.fileName);
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
var ns=['common'];if(${JSON.stringify(PUBLIC_ROUTES)}.indexOf(p)>=0)ns.push('public');
var ls=lng==='en'?['en']:[lng,'en'];
function add(r,h,a){var e=d.createElement('link');e.rel=r;e.href=h;if(a){e.as=a;e.crossOrigin='anonymous'}d.head.appendChild(e)}
ls.forEach(function(l){ns.forEach(function(n){add('preload','/locales/'+l+'/'+n+'.json','fetch')})});
if(p==='/')${JSON.stringify(homeFiles.map((f) => `/${f}`))}.forEach(function(f){add('modulepreload',f)});
}catch(e){}})();`;
      const ref = this.emitFile({ type: 'asset', name: 'boot.js', source: code });
      const src = `/${this.getFileName(ref)}`;
      html.source = String(html.source).replace('<head>', `<head>\n    <script src="${src}" defer></script>`);
    },
  };
}

// The web app is built to dist/web and served by the Node server (src/server) with a history
// fallback. Translation files are NOT copied: the server serves src/locales at /locales/{lng}/{ns}.json.
export default defineConfig({
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
});
