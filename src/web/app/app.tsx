import { StrictMode, Suspense } from 'react';
import { AppRoutes } from './router';
import { BootScreen } from './boot-screen';

/**
 * The whole app, inside a router: BrowserRouter in the browser (main.tsx), StaticRouter when the
 * public pages are prerendered at build time (prerender.tsx). Both must render this same tree, or
 * the browser cannot hydrate the prerendered HTML.
 */
export function App() {
  return (
    <StrictMode>
      <Suspense fallback={<BootScreen />}>
        <AppRoutes />
      </Suspense>
    </StrictMode>
  );
}
