import {
  type Attachment,
  AUTHORITY,
  arrivalState,
  attachmentNotes,
  authorityPostalAddress,
  currentLegalVersion,
  stateWords,
} from '@ros/domain';
import { useEffect, useRef } from 'react';
import { Button } from '../components/Button';
import { useLang, withLang } from '../shell/lang';
import { EXTERNAL_LINKS } from '../shell/links';
import { usePageTitle } from '../shell/title';
import { useT } from '../shell/translate';
import { StatusAccess } from '../status/StatusAccess';
import { isEmailConfirmation, pdfPath, type SubmitAnswer } from './submit';

/**
 * The screen after a successful submission (spec section 2 "After success"), a GOV.UK-style
 * confirmation: the reference number in a panel, then what happens next.
 * The panel says where the request stands in @ros/domain's statusWords (issue 36).
 * - PDF flow: the request is stored but has not reached the authority; the browser starts
 *   downloading the PDF at once (an attachment, so the page stays). Next: print, sign, send it
 *   by post, to the data mailbox or in person (the address and data box are @ros/domain's AUTHORITY, as in the footer and the PDF),
 *   with the attachments `requiredAttachments` of @ros/domain lists, in the words of the PDF
 *   (the legal texts' attachments notes).
 * - NIA flow (the answer says `email: true`): the request reached the authority directly and is
 *   received on arrival (issue 38: "Request received by the Authority", `arrivalState`); the
 *   confirmation went to the entered e-mail address; nothing downloads by itself, but a link
 *   offers the PDF to keep (issue 28); only attachments remain.
 * An exit reloads the app; after a NIA request it goes through /api/ros/sso-logout, which signs
 * the person out at NIA too (when NIA offers it) on the way to the home page (docs/nia.md).
 */
export function SuccessView({
  answer,
  email,
  attachments,
}: {
  answer: SubmitAnswer;
  /** The e-mail address entered in the form (where the NIA confirmation went). */
  email?: string;
  attachments: Attachment[];
}) {
  const { t } = useT();
  const lang = useLang();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const started = useRef(false);
  const byEmail = isEmailConfirmation(answer);
  const href = pdfPath(answer.id);
  const heading = byEmail ? 'SUBMIT.SUCCESS.HEADING' : 'SUBMIT.SUCCESS.HEADING_PDF';
  usePageTitle(heading);

  useEffect(() => {
    headingRef.current?.focus();
    if (started.current || byEmail) return;
    started.current = true;
    window.location.assign(href);
  }, [href, byEmail]);

  const attachmentItems = (
    <ul>
      {attachmentNotes(currentLegalVersion(), lang, attachments).map((note) => (
        <li key={note}>{note}</li>
      ))}
    </ul>
  );

  return (
    <div className="request success" data-testid="submit-success" data-variant={byEmail ? 'email' : 'pdf'}>
      <section className="panel" aria-labelledby="submit-success-title">
        <h2 id="submit-success-title" ref={headingRef} tabIndex={-1} className="panel__title">
          {t(heading)}
        </h2>
        <p className="panel__body" data-testid="submit-reference">
          {answer.reference ? (
            <>
              {t('SUBMIT.SUCCESS.REFERENCE_LABEL')}
              <br />
              <strong className="panel__reference">{answer.reference}</strong>
            </>
          ) : (
            answer.text
          )}
        </p>
        {/* Where the request stands, in the words of the status page and the PDF (issue 36): a
            paper request waits for its signature, a NIA one is received on arrival (issue 38). */}
        <p className="panel__body" data-testid="submit-state">
          {stateWords(lang, arrivalState(byEmail ? 'nia' : 'pdf')).step}
        </p>
      </section>

      {byEmail ? (
        <section className="card form-section" aria-labelledby="submit-next-title">
          <h2 id="submit-next-title">{t('SUBMIT.SUCCESS.EMAIL_NEXT_TITLE')}</h2>
          <p data-testid="submit-email-note">
            {email ? t('SUBMIT.SUCCESS.EMAIL_SENT', { email }) : t('SUBMIT.SUCCESS.EMAIL_SENT_GENERIC')}
          </p>
          <p>{t('SUBMIT.SUCCESS.EMAIL_NEXT')}</p>
          {/* A copy to keep here as well, not only by e-mail (issue 28). */}
          <p>
            <a href={href} download data-testid="pdf-link">
              {t('SUBMIT.SUCCESS.DOWNLOAD_COPY')}
            </a>
          </p>
          {attachments.length > 0 && (
            <div data-testid="attachment-alert">
              <p>{t('SUBMIT.SUCCESS.ATTACH_NIA')}</p>
              {attachmentItems}
            </div>
          )}
        </section>
      ) : (
        <section className="card form-section" aria-labelledby="submit-next-title">
          <p>
            {t('SUBMIT.SUCCESS.DOWNLOAD_NOTE')}{' '}
            <a href={href} download data-testid="pdf-link">
              {t('SUBMIT.SUCCESS.DOWNLOAD_AGAIN')}
            </a>
          </p>
          <h2 id="submit-next-title">{t('SUBMIT.SUCCESS.NEXT_TITLE')}</h2>
          <ol className="steps">
            <li>{t('SUBMIT.SUCCESS.STEP_PRINT')}</li>
            <li>{t('SUBMIT.SUCCESS.STEP_SIGN')}</li>
            <li>
              {t('SUBMIT.SUCCESS.STEP_SEND')}
              <ul>
                <li>{t('SUBMIT.SUCCESS.SEND_POST', { address: authorityPostalAddress(lang) })}</li>
                <li>{t('SUBMIT.SUCCESS.SEND_DATABOX', { databox: AUTHORITY.dataBox })}</li>
                <li>{t('SUBMIT.SUCCESS.SEND_PERSON', { address: AUTHORITY.address[lang] })}</li>
              </ul>
              <a href={EXTERNAL_LINKS[lang].contacts} rel="noopener">
                {t('SUBMIT.SUCCESS.CONTACTS_LINK')}
              </a>
            </li>
            <li data-testid={attachments.length > 0 ? 'attachment-alert' : undefined}>
              {attachments.length > 0 ? (
                <>
                  {t('SUBMIT.SUCCESS.STEP_ATTACH')}
                  {attachmentItems}
                </>
              ) : (
                t('SUBMIT.SUCCESS.STEP_NO_ATTACH')
              )}
            </li>
          </ol>
        </section>
      )}
      <StatusAccess reference={answer.reference} accessCode={answer.access_code} />
      <div className="form-actions">
        <Button
          variant="outlined"
          size="l"
          data-testid="submit-exit"
          onClick={() => window.location.assign(withLang(byEmail ? '/api/ros/sso-logout' : '/', lang))}
        >
          {t('SUBMIT.SUCCESS.EXIT')}
        </Button>
      </div>
    </div>
  );
}
