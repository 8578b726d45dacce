import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { pathAliases } from './scripts/path-aliases.js';
import { PAGE_ROUTES } from './src/core/routes.js';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';

/** The public pages: the boot script preloads the current one's code and translations. */
const PRERENDERED = PAGE_ROUTES.filter((route) => route.prerendered);

/**
 * Emits /assets/boot-[hash].js (src/web/boot.ts, bundled on its own), run (deferred) before the
 * app: it detects the language as the app does and preloads that language's translation files,
 * plus the current public page's code and namespaces. A file and not an inline script: the
 * server's Content-Security-Policy allows 'self' scripts only.
 */
function bootPreload(): Plugin {
  return {
    name: 'boot-preload',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
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
      const preloads = Object.fromEntries(
        PRERENDERED.map((route) => {
          const page = `features/${route.page}.tsx`;
          const files = filesFor(route.withoutQueryClient ? [page] : [page, 'lib/query-client.tsx']);
          return [route.path, { namespaces: route.namespaces, files }];
        }),
      );
      const boot = await build({
        entryPoints: ['src/web/boot.ts'],
        bundle: true,
        write: false,
        minify: true,
        format: 'iife',
        target: 'es2022',
        define: { BOOT_PRELOADS: JSON.stringify(preloads) },
        logLevel: 'warning',
      });
      const ref = this.emitFile({ type: 'asset', name: 'boot.js', source: boot.outputFiles[0]!.text });
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
      ...pathAliases,
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
              test: /src[\\/](core[\\/](money|channels|fees|rates|amount-input)\.ts|web[\\/]lib[\\/](format|use-json)\.ts|web[\\/]components[\\/]ui[\\/](alert|card|input|label|select)\.tsx)$/,
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
