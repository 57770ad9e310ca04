import { arrivalState, CORRECTION_STATUSES, REQUEST_STATUSES, requestState, stateWords } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { confirmationMail, niaAnswerText } from '../mail/confirmation.js';
import { fill, PDF_LABELS } from '../pdf/labels.js';
import { buildPdfModel } from '../pdf/model.js';
import { renderPdf } from '../pdf/render.js';
import { CODES_AS_THEY_ARE, pdfText, storedRequestOf } from '../test/pdfText.js';
import { toGsm7 } from './gsm7.js';
import { statusMail, statusSms } from './texts.js';

/**
 * Issue 36: the server's surfaces say where a request stands in the words of @ros/domain's
 * statusWords, as the browser's do (packages/web/src/status/vocabulary.test.tsx): the PDF (read
 * back), the submit answer, the NIA confirmation e-mail, the status e-mails and the SMS. None says
 * "received" before the authority has marked the request received; a request sent after NIA
 * sign-in is received on arrival (issue 38), and says so from the start. A correction of a
 * decision (issue 38) is told as one, with the corrected state in the same words.
 */

const names = CODES_AS_THEY_ARE;

const RECEIVED = /přijal|přijat|received/i;
/** A wait for the authority to take the request over: only a NIA request still `new` (before issue 38). */
const TAKE_OVER = /převzetí|převezme|take it over|taken it over/i;
/** A correction as the status page words it ("Rozhodnutí opraveno" / "Decision corrected"). */
const CORRECTED = {
  cs: /rozhodnutí opraveno|rozhodnutí .* bylo opraveno/i,
  en: /decision (on .* has been )?corrected/i,
};
const CORRECTED_SMS = { cs: 'rozhodnuti opraveno', en: 'decision corrected' };

describe('one vocabulary for the request states on every server surface', { timeout: 120_000 }, () => {
  for (const lang of ['cs', 'en'] as const) {
    it(`${lang}: the paper PDF waits for the signed request, the NIA PDF was sent and received on arrival, a received one says so`, async () => {
      const paper = await pdfText(await renderPdf(buildPdfModel(storedRequestOf(lang, false), names)));
      expect(paper).toContain(stateWords(lang, 'waiting_paper').step);
      expect(paper).not.toMatch(RECEIVED);
      // A NIA request stored before issue 38, still `new`: sent, not received.
      const niaNew = await pdfText(await renderPdf(buildPdfModel(storedRequestOf(lang, true), names)));
      expect(niaNew).toContain(stateWords(lang, 'sent').step);
      expect(niaNew).not.toMatch(RECEIVED);
      // Now received on arrival: the PDF's status line says received, at the time it was sent
      // (pdf/requestPdf.ts reads received_at, which receiveOnArrival sets to created_at).
      const arrived = storedRequestOf(lang, true);
      const nia = await pdfText(await renderPdf(buildPdfModel(arrived, names, undefined, arrived.createdAt)));
      expect(nia).toContain(stateWords(lang, 'sent').step);
      expect(nia).toContain(stateWords(lang, arrivalState('nia')).step);
      expect(nia).not.toMatch(TAKE_OVER);
      const received = await pdfText(
        await renderPdf(
          buildPdfModel(storedRequestOf(lang, false), names, undefined, '2026-11-27T10:00:00.000Z'),
        ),
      );
      expect(received).toContain(stateWords(lang, 'received').step);
    });

    it(`${lang}: the paper answer says filled in, not received; the NIA answer and confirmation say sent and received`, () => {
      const paperAnswer = fill(PDF_LABELS[lang].confirmation, { reference: 'ROS-2026-000042' });
      expect(paperAnswer).toContain(stateWords(lang, 'filled').step);
      expect(paperAnswer).toContain(stateWords(lang, 'waiting_paper').step);
      expect(paperAnswer).not.toMatch(RECEIVED);
      const received = stateWords(lang, arrivalState('nia')).state;
      const answer = niaAnswerText(storedRequestOf(lang, true));
      expect(answer).toContain(stateWords(lang, 'sent').state);
      expect(answer).toContain(received);
      const mail = confirmationMail(storedRequestOf(lang, true));
      expect(mail.subject).toContain(stateWords(lang, 'sent').state);
      for (const text of [mail.text, mail.html]) {
        expect(text).toContain(stateWords(lang, 'sent').state);
        expect(text).toContain(received);
      }
      for (const text of [answer, mail.subject, mail.text, mail.html]) expect(text).not.toMatch(TAKE_OVER);
    });

    it(`${lang}: the status e-mail and the SMS of every change name its state`, () => {
      for (const status of REQUEST_STATUSES.filter((s) => s !== 'new')) {
        const n = { lang, reference: 'ROS-2026-000042', status, link: 'https://ros.example.cz/x' };
        const words = stateWords(lang, requestState(status, 'pdf')).state;
        const mail = statusMail(n);
        expect(mail.subject).toContain(words);
        expect(mail.text).toContain(words);
        expect(statusSms(n)).toContain(toGsm7(words));
        // A change is no correction.
        for (const text of [mail.subject, mail.text, statusSms(n)])
          expect(text).not.toMatch(/opraven|correct/i);
      }
    });

    it(`${lang}: the e-mail and the SMS of a correction say the decision was corrected, and the corrected state`, () => {
      for (const status of CORRECTION_STATUSES) {
        const n = {
          lang,
          reference: 'ROS-2026-000042',
          status,
          link: 'https://ros.example.cz/x',
          correction: true,
        };
        const words = stateWords(lang, requestState(status, 'pdf')).state;
        const mail = statusMail(n);
        expect(mail.subject).toMatch(CORRECTED[lang]);
        expect(mail.subject).toContain('ROS-2026-000042');
        for (const text of [mail.text, mail.html]) {
          expect(text).toMatch(CORRECTED[lang]);
          expect(text).toContain(words);
          expect(text).not.toMatch(/se změnil|has changed/);
        }
        const sms = statusSms(n);
        expect(sms).toContain(CORRECTED_SMS[lang]);
        expect(sms).toContain(toGsm7(words));
      }
    });
  }
});
