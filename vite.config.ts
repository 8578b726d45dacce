import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { pathAliases } from './scripts/path-aliases.js';
import { PAGE_READS, PAGE_ROUTES } from './src/core/routes.js';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';

/**
 * The pages whose code and translations the boot script preloads: the public ones and the
 * sender's own pages at a fixed address. A signed-in page would otherwise ask for its code only
 * once the session is checked, one round trip later (the web bench's Lighthouse runs of
 * /dashboard, /transfer and /history).
 */
const PRELOADED = PAGE_ROUTES.filter((route) => route.prerendered || (route.access === 'auth' && !route.path.includes(':')));

/**
 * Emits /assets/boot-[hash].js (src/web/boot.ts, bundled on its own), run (deferred) before the
 * app: it detects the language as the app does and preloads that language's translation files,
 * plus the current page's code and namespaces (public pages and the sender's own) and, signed in,
 * the page's first API reads (PAGE_READS). A file and not an inline script: the
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
        return files;
      };
      // The table as small as it can be (the boot script counts in the home page's budget): each
      // code file named once, by its name under assets/ without ".js", and each page's files as
      // their places in that list.
      const names: string[] = [];
      const placeOf = (file: string) => {
        const name = file.replace(/^assets\//, '').replace(/\.js$/, '');
        if (!names.includes(name)) names.push(name);
        return names.indexOf(name);
      };
      const preloads = Object.fromEntries(
        PRELOADED.map((route) => {
          const page = `features/${route.page}.tsx`;
          const modules = route.withoutQueryClient ? [page] : [page, 'lib/query-client.tsx'];
          const files = filesFor(modules);
          const reads = PAGE_READS[route.path];
          return [route.path, [route.namespaces, files.map(placeOf), ...(reads ? [reads] : [])]];
        }),
      );
      const boot = await build({
        entryPoints: ['src/web/boot.ts'],
        bundle: true,
        write: false,
        minify: true,
        format: 'iife',
        target: 'es2022',
        define: { BOOT_PRELOADS: JSON.stringify(preloads), BOOT_FILES: JSON.stringify(names) },
        logLevel: 'warning',
      });
      const ref = this.emitFile({ type: 'asset', name: 'boot.js', source: boot.outputFiles[0]!.text });
      const src = `/${this.getFileName(ref)}`;
      html.source = String(html.source).replace('<head>', `<head>\n    <script src="${src}" defer></script>`);
    },
  };
}

/**
 * React Router's bundle makes its components with `React.forwardRef(…)`, `React.memo(…)` and
 * `React.createContext(…)` and then sets their `displayName`: to the bundler both are side effects,
 * so every component stays, used or not (its <Form>, useSubmit and form-submission helpers: about
 * 1.4 KB gzip on every page). Marked pure and without the names (which only React's developer
 * tools read), what the app does not use is dropped.
 */
function pureRouterComponents(): Plugin {
  return {
    name: 'pure-router-components',
    apply: 'build',
    transform: {
      filter: { id: /node_modules[\\/]react-router[\\/]dist[\\/].+\.m?js$/ },
      handler(code) {
        return code
          .replace(/^((?:var|const|let) [\w$]+ = )(React[\w$]*\.(?:forwardRef|memo|createContext)\()/gm, '$1/* @__PURE__ */ $2')
          .replace(/^[\w$]+\.displayName = "[^"]*";$/gm, '');
      },
    },
  };
}

/**
 * i18next writes its warnings through a logger that prints them (and its `once` messages) only in debug mode, which the app
 * never turns on (src/web/lib/i18n.ts), yet their texts ship on every page (about 1.2 KB gzip in
 * i18next 27). Their arguments are dropped at build; errors are kept.
 */
function quietI18nextWarnings(): Plugin {
  return {
    name: 'quiet-i18next-warnings',
    apply: 'build',
    transform: {
      filter: { id: /node_modules[\\/]i18next[\\/]dist[\\/]esm[\\/]i18next\.js$/ },
      handler(code) {
        const cuts: [number, number][] = [];
        const visit = (node: unknown): void => {
          if (!node || typeof node !== 'object') return;
          if (Array.isArray(node)) return node.forEach(visit);
          const n = node as { type?: string; callee?: { type: string; property?: { name?: string }; object?: { type: string; property?: { name?: string } } }; arguments?: { start: number; end: number }[] };
          const callee = n.callee;
          if (n.type === 'CallExpression' && callee?.type === 'MemberExpression' && ['warn', 'deprecate', 'log', 'once'].includes(callee.property?.name ?? '')
            && callee.object?.type === 'MemberExpression' && callee.object.property?.name === 'logger' && n.arguments?.length) {
            cuts.push([n.arguments[0]!.start, n.arguments.at(-1)!.end]);
          }
          for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
        };
        visit(this.parse(code));
        let out = code;
        for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
        return out;
      },
    },
  };
}

/**
 * i18next's built-in formatter (`{{amount, number}}` in a translation, through Intl) ships on every
 * page, about 1 KB gzip, though no translation of ours formats a value (the app formats amounts and
 * dates itself, src/web/lib/format.ts; src/web/lib/locales.test.ts keeps it so). Without it,
 * i18next keeps its default, which gives the value as it is.
 */
function noI18nextFormatter(): Plugin {
  return {
    name: 'no-i18next-formatter',
    apply: 'build',
    transform: {
      filter: { id: /node_modules[\\/]i18next[\\/]dist[\\/]esm[\\/]i18next\.js$/ },
      handler(code) {
        const use = 'formatter = Formatter;';
        if (code.split(use).length !== 2) this.error(`i18next: "${use}" not found once (a new i18next version?)`);
        return code.replace(use, 'formatter = undefined;');
      },
    },
  };
}

// The web app is built to dist/web and served by the Node server (src/server) with a history
// fallback. Translation files are NOT copied: the server serves src/locales at /locales/{lng}/{ns}.json.
export default defineConfig(({ isSsrBuild }) => ({
  root: '.',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), pureRouterComponents(), quietI18nextWarnings(), noI18nextFormatter(), bootPreload()],
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
    // No modulepreload polyfill on every page: a browser without modulepreload (Safari before 17)
    // still loads each module, only when its importer asks for it.
    modulePreload: { polyfill: false },
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
            // The signed-in pages' libraries, each in one file rather than one file per hook or
            // icon: a page waited for a score of tiny files it found only once its own had loaded.
            // TanStack Query comes with our client and the shared queries (public pages use them too).
            {
              name: 'query',
              test: /node_modules[\\/]@tanstack[\\/]|src[\\/]web[\\/]lib[\\/](query-client\.tsx|queries\.ts)$/,
              includeDependenciesRecursively: false,
            },
            { name: 'lucide', test: /node_modules[\\/]lucide-react[\\/]/ },
            // What the sender's own pages share (their transfers, limits, states and delivery, a rate written out, the
            // cancel button, the e-mail language kept in step), in one file: the dashboard asked for sixteen files, a dozen of them
            // under 1.5 KB, and on a phone's connection each costs a round trip.
            {
              name: 'sender',
              test: /src[\\/](core[\\/](status|phone|sender-state|kyc|delivery|operators)\.ts|web[\\/]lib[\\/](transfers|kyc|send-again|operators|rate-lines)\.ts|web[\\/](app[\\/]email-language-sync|components[\\/](sender-state|kyc-limits|kyc-review-notice|cancel-transfer|delivery-note|ui[\\/](badge|once-opened|confirm-dialog)))\.tsx)$/,
              // What they import beside (the API client, buttons…) stays where the app shell has it.
              includeDependenciesRecursively: false,
            },
            // The small modules the home page and /fees share with the money screens (prices,
            // corridors, the live price and its rate text, plain form parts), in one file: a dozen
            // tiny files cost more, compressed.
            {
              name: 'pricing',
              test: /src[\\/](core[\\/](money|channels|fees|rates|amount-input|quotes)\.ts|web[\\/]lib[\\/](format|use-json|quotes|rate-text)\.ts|web[\\/]components[\\/]ui[\\/](alert|card|input|label|select)\.tsx)$/,
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
