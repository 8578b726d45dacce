// Transaction monitoring (docs/rules/monitoring.md): the rules, their settings, the cases' states.
export * from './rules.js';
export * from './evaluate.js';
export * from './cases.js';
