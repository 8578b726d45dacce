import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import './styles.css';
import { browserLanguage } from '../core/language-detection';
import { initI18n } from './lib/i18n';
import { App } from './app/app';
import { preloadRoute } from './app/router';

void initI18n();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

const app = (
  <BrowserRouter>
    <App />
  </BrowserRouter>
);

// Public pages arrive prerendered in the language the server guessed (data-lng, see
// scripts/prerender.mjs): hydrated when the browser settles on that language too, else rendered anew.
if (container.dataset.lng && container.dataset.lng === browserLanguage(window)) {
  // Hydration must not wait on anything, or React may drop the prerendered HTML and draw the
  // page again: translations and the page's code first. In a transition, as below: hydrated in
  // slices (an urgent hydration is one long task, which Lighthouse counts against the page).
  void Promise.all([initI18n(), preloadRoute(location.pathname)]).finally(() => startTransition(() => {
    hydrateRoot(container, app);
  }));
} else {
  // Drawn once the translations and the page's code are in, so the first thing drawn over the
  // HTML's shell (and a signed-in page's heading in it) is the page or its own loading state, not
  // the bare boot screen.
  // Its own task, after the one that ran the app's modules and started the translations: one
  // long task would be counted whole against the page (Lighthouse TBT). A transition: React
  // renders in small slices instead of one long task.
  void Promise.all([initI18n(), preloadRoute(location.pathname)]).finally(() => setTimeout(() => {
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }));
}
