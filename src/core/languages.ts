/** The languages the app speaks: its pages, its e-mails and its API messages. English is the fallback. */
export const LANGUAGES = ['en', 'fr'] as const;
export type Lang = (typeof LANGUAGES)[number];
