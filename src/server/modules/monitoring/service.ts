// The monitoring module's public file: what other modules may use of it.
export { monitorAtInitiation } from './at-initiation.js';
export { clearedByRules, factsWindows, type MonitorableTransfer } from './monitor.js';
export { ruleSettings } from './settings.js';
