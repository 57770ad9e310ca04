import {
  arrivalState,
  attachmentNotes,
  fill,
  formatAccessCode,
  requiredAttachments,
  stateWords,
} from '@ros/domain';
import type { StoredRequest } from '../requests/repository.js';

/**
 * The confirmation e-mail of a request submitted after NIA sign-in (docs/requirements.md, product
 * decisions, "Submit and the PDF"): in the request's language, plain text and simple HTML, the
 * reference number, what happens next, the attachments still to send, and the request as a PDF
 * attachment. Where the request stands is said in @ros/domain's statusWords (issue 36): sent to
 * the authority electronically and, as it is received on arrival (issue 38: stored `received`,
 * requests/store.ts receiveOnArrival; its PDF's status line says so), received by the authority.
 */
const SENT = { cs: stateWords('cs', 'sent').state, en: stateWords('en', 'sent').state };
const RECEIVED = {
  cs: stateWords('cs', arrivalState('nia')).state,
  en: stateWords('en', arrivalState('nia')).state,
};

const TEXTS = {
  cs: {
    subject: `Žádost {reference} ${SENT.cs} – registr ROS`,
    subjectDuplicate: `Žádost o duplikát {reference} ${SENT.cs} – registr ROS`,
    greeting: 'Dobrý den,',
    received: `Vaše žádost o vydání dokladu o spolehlivosti číslo {reference} byla ${SENT.cs} a ${RECEIVED.cs}.`,
    receivedDuplicate: `Vaše žádost o vydání duplikátu dokladu o spolehlivosti číslo {reference} byla ${SENT.cs} a ${RECEIVED.cs}.`,
    next: 'Žádost jste podali po přihlášení prostřednictvím NIA, proto ji nemusíte tisknout, podepisovat ani posílat poštou: úřad ji již má a začne ji zpracovávat. O vyřízení Vás budeme informovat. Žádost je pro Vaši evidenci přiložena jako PDF.',
    attachments: 'Doložte prosím ještě:',
    quote: 'V komunikaci s úřadem uvádějte číslo žádosti {reference}.',
    signature: 'Úřad pro civilní letectví – registr ověření spolehlivosti (ROS)',
    automatic: 'Tato zpráva byla odeslána automaticky, neodpovídejte na ni.',
    status: 'Stav žádosti uvidíte na stránce {url} (číslo žádosti {reference}, přístupový kód {code}).',
    answer: `Žádost číslo {reference} byla ${SENT.cs} a ${RECEIVED.cs}. Potvrzení s žádostí v PDF jsme poslali na zadaný e-mail.`,
  },
  en: {
    subject: `Request {reference} ${SENT.en} – ROS register`,
    subjectDuplicate: `Duplicate request {reference} ${SENT.en} – ROS register`,
    greeting: 'Hello,',
    received: `Your request for a background-check certificate, reference number {reference}, was ${SENT.en} and ${RECEIVED.en}.`,
    receivedDuplicate: `Your request for a duplicate background-check certificate, reference number {reference}, was ${SENT.en} and ${RECEIVED.en}.`,
    next: 'You submitted the request after signing in through NIA, so you do not need to print, sign or post it: the Authority has it already and will start processing it. We will let you know the outcome. The request is attached as a PDF for your records.',
    attachments: 'Please still send:',
    quote: 'Quote the reference number {reference} whenever you contact the Authority.',
    signature: 'Civil Aviation Authority – background-check register (ROS)',
    automatic: 'This message was sent automatically; please do not reply.',
    status: 'You can follow the request at {url} (reference {reference}, access code {code}).',
    answer: `Your request, reference number {reference}, was ${SENT.en} and ${RECEIVED.en}. We have sent a confirmation with the request as a PDF to the e-mail address you entered.`,
  },
} as const;

/** The `text` of POST /api/ros after a NIA submission (the browser shows its own message too). */
export function niaAnswerText(r: Pick<StoredRequest, 'language' | 'reference'>): string {
  return fill(TEXTS[r.language].answer, { reference: r.reference });
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ESC[c] ?? c);

export interface ConfirmationMail {
  subject: string;
  text: string;
  html: string;
  filename: string;
}

/**
 * `status`: the status page's access code and link (docs/status.md), printed after the
 * paragraph that quotes the reference.
 */
export function confirmationMail(r: StoredRequest, status?: { code: string; url: string }): ConfirmationMail {
  const t = TEXTS[r.language];
  const v = { reference: r.reference };
  const statusLine = status
    ? fill(t.status, { url: status.url, reference: r.reference, code: formatAccessCode(status.code) })
    : null;
  // The notes of the legal texts' version the request was given, as its PDF prints them.
  const attachments = attachmentNotes(
    r.legal.version,
    r.language,
    requiredAttachments(r.values, r.duplicate),
  );
  const paragraphs = [
    t.greeting,
    fill(r.duplicate ? t.receivedDuplicate : t.received, v),
    t.next,
    fill(t.quote, v),
  ];
  const text = [
    ...paragraphs,
    ...(statusLine ? [statusLine] : []),
    ...(attachments.length > 0 ? [`${t.attachments}\n${attachments.map((a) => `- ${a}`).join('\n')}`] : []),
    `${t.signature}\n${t.automatic}`,
  ].join('\n\n');
  const html = `<!doctype html><html lang="${r.language}"><head><meta charset="utf-8"><title>${esc(
    fill(r.duplicate ? t.subjectDuplicate : t.subject, v),
  )}</title></head><body style="font-family:Arial,sans-serif;line-height:1.5;color:#111">
${paragraphs.map((p) => `<p>${esc(p).replace(esc(r.reference), `<strong>${esc(r.reference)}</strong>`)}</p>`).join('\n')}
${statusLine && status ? `<p>${esc(statusLine).replace(esc(status.url), `<a href="${esc(status.url)}">${esc(status.url)}</a>`)}</p>` : ''}
${attachments.length > 0 ? `<p>${esc(t.attachments)}</p><ul>${attachments.map((a) => `<li>${esc(a)}</li>`).join('')}</ul>` : ''}
<p>${esc(t.signature)}<br><small>${esc(t.automatic)}</small></p>
</body></html>`;
  return {
    subject: fill(r.duplicate ? t.subjectDuplicate : t.subject, v),
    text,
    html,
    filename: `${r.reference}.pdf`,
  };
}
