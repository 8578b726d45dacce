import type { Language } from '../lib/i18n';

/** Names shown in the menu, each in its own language: English and Français. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français' };
