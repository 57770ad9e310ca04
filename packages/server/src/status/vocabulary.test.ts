import { REQUEST_STATUSES, requestState, stateWords } from '@ros/domain';
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
 * "received" before the authority has marked the request received.
 */

const names = CODES_AS_THEY_ARE;

const RECEIVED = /přijal|přijat|received/i;

describe('one vocabulary for the request states on every server surface', { timeout: 120_000 }, () => {
  for (const lang of ['cs', 'en'] as const) {
    it(`${lang}: the paper PDF waits for the signed request, the NIA PDF was sent, a received one says so`, async () => {
      const paper = await pdfText(await renderPdf(buildPdfModel(storedRequestOf(lang, false), names)));
      expect(paper).toContain(stateWords(lang, 'waiting_paper').step);
      expect(paper).not.toMatch(RECEIVED);
      const nia = await pdfText(await renderPdf(buildPdfModel(storedRequestOf(lang, true), names)));
      expect(nia).toContain(stateWords(lang, 'sent').step);
      expect(nia).not.toMatch(RECEIVED);
      const received = await pdfText(
        await renderPdf(
          buildPdfModel(storedRequestOf(lang, false), names, undefined, '2026-11-27T10:00:00.000Z'),
        ),
      );
      expect(received).toContain(stateWords(lang, 'received').step);
    });

    it(`${lang}: the submit answers and the NIA confirmation say sent, not received`, () => {
      const paperAnswer = fill(PDF_LABELS[lang].confirmation, { reference: 'ROS-2026-000042' });
      expect(paperAnswer).toContain(stateWords(lang, 'filled').step);
      expect(paperAnswer).toContain(stateWords(lang, 'waiting_paper').step);
      expect(paperAnswer).not.toMatch(RECEIVED);
      expect(niaAnswerText(storedRequestOf(lang, true))).toContain(stateWords(lang, 'sent').state);
      const mail = confirmationMail(storedRequestOf(lang, true));
      for (const text of [mail.subject, mail.text, mail.html]) {
        expect(text).toContain(stateWords(lang, 'sent').state);
        expect(text).not.toMatch(RECEIVED);
      }
    });

    it(`${lang}: the status e-mail and the SMS of every change name its state`, () => {
      for (const status of REQUEST_STATUSES.filter((s) => s !== 'new')) {
        const n = { lang, reference: 'ROS-2026-000042', status, link: 'https://ros.example.cz/x' };
        const words = stateWords(lang, requestState(status, 'pdf')).state;
        const mail = statusMail(n);
        expect(mail.subject).toContain(words);
        expect(mail.text).toContain(words);
        expect(statusSms(n)).toContain(toGsm7(words));
      }
    });
  }
});
