// The sanctions name matcher (docs/rules/screening.md): build an index once per list version,
// then screen names against it.
export { buildIndex, indexSteps, type ScreeningIndex } from './search-index.js';
export { HOLD_THRESHOLD, screen } from './screen.js';
export type * from './types.js';
