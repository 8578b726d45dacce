import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeLanguage } from '../lib/i18n';
import { useSession } from '../lib/session';
import { saveMyLanguage } from '../lib/session-api';

/**
 * Keeps the signed-in user's e-mail language (stored on the profile) in step with the EN/FR
 * switcher: when the interface language and the profile's differ, the profile follows.
 * Renders nothing; mounted once by the layout.
 */
export function EmailLanguageSync() {
  const { i18n } = useTranslation();
  const { user, refresh } = useSession();
  const current = normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
  const stored = typeof user?.language === 'string' ? user.language : null;
  useEffect(() => {
    if (!user || !stored || stored === current) return;
    saveMyLanguage(current).then(() => refresh(), () => { /* retried on the next switch or visit */ });
  }, [user, stored, current, refresh]);
  return null;
}
