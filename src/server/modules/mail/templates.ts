import type { Lang } from '@server/i18n.js';
import { t } from '@server/i18n.js';
import type { MailMessage } from './mailer.js';

// The account e-mails (codes, links, notices), in plain text and HTML, in the recipient's
// language. Texts live in src/locales/{lang}/auth.json under "mail".

export type AccountMail =
  | { kind: 'verifyEmail'; code: string; minutes: number }
  | { kind: 'changeEmail'; code: string; minutes: number }
  | { kind: 'reauthCode'; code: string; minutes: number }
  | { kind: 'passwordChanged' }
  | { kind: 'resetPassword'; link: string; minutes: number }
  | { kind: 'confirmSignIn'; link: string; minutes: number; provider: string }
  | { kind: 'emailChanged'; newEmail: string }
  | { kind: 'loginThrottled'; failures: number; minutes: number };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function accountMail(lang: Lang, to: string, name: string | null, mail: AccountMail, vars: { app: string; support: string }): MailMessage {
  const k = (key: string, extra: Record<string, string | number> = {}) =>
    t(lang, `auth.mail.${mail.kind}.${key}`, { ...vars, ...mailVars(mail), ...extra });
  const greeting = name ? t(lang, 'auth.mail.greetingName', { name }) : t(lang, 'auth.mail.greeting');
  const intro = k('intro');
  const after = k('after');
  const ignore = k('ignore');
  const signature = t(lang, 'auth.mail.signature', vars);

  let textMiddle = '';
  let htmlMiddle = '';
  if (mail.kind === 'verifyEmail' || mail.kind === 'changeEmail' || mail.kind === 'reauthCode') {
    textMiddle = `    ${mail.code}`;
    htmlMiddle = `<p style="font-size:28px;font-weight:bold;letter-spacing:6px;margin:16px 0">${mail.code}</p>`;
  } else if (mail.kind === 'resetPassword' || mail.kind === 'confirmSignIn') {
    textMiddle = mail.link;
    htmlMiddle = `<p style="margin:16px 0"><a href="${escapeHtml(mail.link)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(k('button'))}</a></p>`
      + `<p style="font-size:12px;color:#475569">${escapeHtml(k('linkHint'))}<br>${escapeHtml(mail.link)}</p>`;
  }

  const paragraphs = [greeting, intro, textMiddle, after, ignore, signature].filter(Boolean);
  const text = paragraphs.join('\n\n');
  const html = '<div style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;font-size:15px;color:#0f172a;max-width:560px">'
    + [greeting, intro].map((p) => `<p>${escapeHtml(p)}</p>`).join('')
    + htmlMiddle
    + [after, ignore].filter(Boolean).map((p) => `<p>${escapeHtml(p)}</p>`).join('')
    + `<p style="color:#475569">${escapeHtml(signature).replace(/\n/g, '<br>')}</p></div>`;
  return { to, subject: k('subject'), text, html };
}

function mailVars(mail: AccountMail): Record<string, string | number> {
  switch (mail.kind) {
    case 'verifyEmail':
    case 'changeEmail':
    case 'reauthCode':
      return { code: mail.code, minutes: mail.minutes };
    case 'passwordChanged':
      return {};
    case 'resetPassword':
      return { minutes: mail.minutes };
    case 'confirmSignIn':
      return { minutes: mail.minutes, provider: mail.provider };
    case 'emailChanged':
      return { newEmail: mail.newEmail };
    case 'loginThrottled':
      return { failures: mail.failures, minutes: mail.minutes };
  }
}
