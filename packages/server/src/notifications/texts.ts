import { fill, type RequestStatus, requestState, stateWords } from '@ros/domain';
import { toGsm7 } from './gsm7.js';

/**
 * The words of the status notifications (docs/status.md) in the request's language: the new
 * status in the words of @ros/domain's statusWords (the same the status page, the PDF and the
 * success screen use), the status page's link, and nothing of the person but the reference (the
 * note is only on the page, behind the access code).
 *
 * A correction of a decision (issue 38, intake/correction.ts: a history row with correction = 1)
 * is told as such, not as a change of status: "the decision on your request was corrected", then
 * the corrected status in the same words (the status page's step "Rozhodnutí opraveno" / "Decision
 * corrected", web status.json). Its reason, like a status note, stays on the status page.
 */
const TEXTS = {
  cs: {
    subject: 'Žádost {reference}: {status} – registr ROS',
    greeting: 'Dobrý den,',
    changed: 'stav Vaší žádosti {reference} se změnil: {status}.',
    subjectCorrected: 'Žádost {reference}: rozhodnutí opraveno – registr ROS',
    corrected: 'rozhodnutí o Vaší žádosti {reference} bylo opraveno. Stav žádosti je nyní: {status}.',
    link: 'Podrobnosti najdete na stránce stavu žádosti: {link}',
    signature: 'Úřad pro civilní letectví – registr ověření spolehlivosti (ROS)',
    automatic:
      'Tato zpráva byla odeslána automaticky, protože jste o oznámení požádali; neodpovídejte na ni.',
    sms: 'ROS: zadost {reference} - {status}. Stav: {link}',
    smsCorrected: 'ROS: zadost {reference} - rozhodnuti opraveno, nyni {status}. Stav: {link}',
  },
  en: {
    subject: 'Request {reference}: {status} – ROS register',
    greeting: 'Hello,',
    changed: 'the status of your request {reference} has changed: {status}.',
    subjectCorrected: 'Request {reference}: decision corrected – ROS register',
    corrected: 'the decision on your request {reference} has been corrected. The request is now: {status}.',
    link: 'See the details on the request status page: {link}',
    signature: 'Civil Aviation Authority – background-check register (ROS)',
    automatic:
      'This message was sent automatically because you asked for notifications; please do not reply.',
    sms: 'ROS: request {reference} - {status}. Status: {link}',
    smsCorrected: 'ROS: request {reference} - decision corrected, now {status}. Status: {link}',
  },
} as const;

/** A status the authority reported, as the notifications word it. */
export function statusWords(lang: 'cs' | 'en', status: RequestStatus): string {
  // Notifications follow the authority's changes, never `new`; a paper request is the safe reading.
  return stateWords(lang, requestState(status, 'pdf')).state;
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ESC[c] ?? c);

export interface NoticeInput {
  lang: 'cs' | 'en';
  reference: string;
  status: RequestStatus;
  /**
   * The status page's link: with the reference and the access code in an e-mail; without them
   * (the bare page, which asks for both) in an SMS, whose gateway never gets the code.
   */
  link: string;
  /** The history row is a correction of a decision (issue 38): told as "decision corrected". */
  correction?: boolean;
}

export function statusMail(n: NoticeInput): { subject: string; text: string; html: string } {
  const t = TEXTS[n.lang];
  const v = { reference: n.reference, status: statusWords(n.lang, n.status), link: n.link };
  const subject = fill(n.correction ? t.subjectCorrected : t.subject, v);
  const news = n.correction ? t.corrected : t.changed;
  const text = [t.greeting, fill(news, v), fill(t.link, v), `${t.signature}\n${t.automatic}`].join('\n\n');
  const linkHtml = `<a href="${esc(n.link)}">${esc(n.link)}</a>`;
  const html = `<!doctype html><html lang="${n.lang}"><head><meta charset="utf-8"><title>${esc(subject)}</title></head><body style="font-family:Arial,sans-serif;line-height:1.5;color:#111">
<p>${esc(t.greeting)}</p>
<p>${esc(fill(news, { ...v, reference: '\u0000' })).replace('\u0000', `<strong>${esc(n.reference)}</strong>`)}</p>
<p>${esc(fill(t.link, { ...v, link: '\u0000' })).replace('\u0000', linkHtml)}</p>
<p>${esc(t.signature)}<br><small>${esc(t.automatic)}</small></p>
</body></html>`;
  return { subject, text, html };
}

/** The SMS in GSM-7 (gsm7.ts): the vocabulary's words without diacritics, one segment. */
export function statusSms(n: NoticeInput): string {
  return toGsm7(
    fill(n.correction ? TEXTS[n.lang].smsCorrected : TEXTS[n.lang].sms, {
      reference: n.reference,
      status: statusWords(n.lang, n.status),
      link: n.link,
    }),
  );
}
