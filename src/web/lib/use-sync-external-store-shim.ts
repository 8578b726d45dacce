// react-i18next imports `use-sync-external-store/shim` for React < 18; React 19 has the hook.
// vite.config.ts aliases the shim here, which keeps its code off every page.
export { useSyncExternalStore } from 'react';
