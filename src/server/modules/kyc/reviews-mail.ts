import type { ReviewDecision } from '@core/kyc-reviews.js';
import type { AppContext } from '@server/context.js';
import { t, type Lang } from '@server/i18n.js';
import type { MailMessage } from '../mail/service.js';

// The e-mail telling a sender staff's decision on their review, in their profile's language
// (texts: src/locales/{lang}/transfer.json, "verify.email").

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function reviewMail(
  ctx: Pick<AppContext, 'config'>,
  decision: { decision: ReviewDecision; level: number; note: string | null },
  profile: { email: string; full_name: string | null; language: Lang },
): MailMessage {
  const lang = profile.language;
  const vars = {
    name: profile.full_name || profile.email, level: decision.level, note: decision.note ?? '',
    link: `${ctx.config.publicUrl}/verify`, support: ctx.config.SUPPORT_EMAIL, app: t(lang, 'common.app.name'),
  };
  const k = (key: string) => t(lang, `transfer.verify.email.${key}`, vars);
  const paragraphs = [
    k('greeting'),
    k(`${decision.decision}.body`),
    ...(decision.note ? [k(`${decision.decision}.note`)] : []),
    k(decision.decision === 'approve' ? 'limits' : 'next'),
    vars.link,
    k('signature'),
  ];
  const html = '<div style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;font-size:15px;color:#0f172a;max-width:560px">'
    + paragraphs.slice(0, -2).map((p) => `<p>${escapeHtml(p)}</p>`).join('')
    + `<p><a href="${escapeHtml(vars.link)}">${escapeHtml(vars.link)}</a></p>`
    + `<p style="color:#475569">${escapeHtml(k('signature')).replace(/\n/g, '<br>')}</p></div>`;
  return { to: profile.email, subject: k(`${decision.decision}.subject`), text: paragraphs.join('\n\n'), html };
}
