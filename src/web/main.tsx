import { startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { initI18n } from './lib/i18n';
import { AppRouter } from './app/router';
import { BootScreen } from './app/boot-screen';

void initI18n();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// A transition: React renders in small slices instead of one long task (Lighthouse TBT). The static
// shell of index.html stays on screen meanwhile.
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <Suspense fallback={<BootScreen />}>
        <AppRouter />
      </Suspense>
    </StrictMode>,
  );
});
