// The screening module's public file: what other modules may use of it.
export { countryCode } from './country-code.js';
export { screeningIndex } from './index-cache.js';
export { hitsOf, raiseAlerts, recipientKey, screenPerson, senderKey } from './screen-people.js';
export { screenSenderOnChange } from './screen-sender.js';
