// The pure domain core: no I/O, shared by the server and the web.
export * from './money.js';
export * from './channels.js';
export * from './rates.js';
export * from './fees.js';
export * from './status.js';
export * from './password.js';
export * from './iban.js';
export * from './schemas.js';
