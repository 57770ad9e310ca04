import type { Attachment } from '@ros/domain';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { useLang, withLang } from '../shell/lang';
import { isEmailConfirmation, pdfPath, type SubmitAnswer } from './submit';

/**
 * The screen after a successful submission (spec section 2 "After success"): the reference
 * number and what to do with the PDF, which the browser starts downloading at once (it is an
 * attachment, so the page stays), a link to download it again, what to attach (the same list the
 * PDF gives, `requiredAttachments` of @ros/domain), and an exit that reloads the app.
 * After a NIA sign-in (the answer says `email: true`) the request reached the authority directly:
 * the screen says the confirmation went to the entered e-mail address, and nothing downloads.
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
  const { t } = useTranslation();
  const lang = useLang();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const started = useRef(false);
  const byEmail = isEmailConfirmation(answer);
  const href = pdfPath(answer.id);

  useEffect(() => {
    headingRef.current?.focus();
    if (started.current || byEmail) return;
    started.current = true;
    window.location.assign(href);
  }, [href, byEmail]);

  return (
    <div className="request" data-testid="submit-success" data-variant={byEmail ? 'email' : 'pdf'}>
      <section className="card form-section" aria-labelledby="submit-success-title">
        <h2 id="submit-success-title" ref={headingRef} tabIndex={-1}>
          {t('SUBMIT.SUCCESS.HEADING')}
        </h2>
        <p data-testid="submit-reference">
          {answer.reference ? t('SUBMIT.SUCCESS.RECEIVED', { reference: answer.reference }) : answer.text}
        </p>
        {byEmail ? (
          <>
            <p data-testid="submit-email-note">
              {email ? t('SUBMIT.SUCCESS.EMAIL_SENT', { email }) : t('SUBMIT.SUCCESS.EMAIL_SENT_GENERIC')}
            </p>
            <p>{t('SUBMIT.SUCCESS.EMAIL_NEXT')}</p>
          </>
        ) : (
          <>
            <p>{t('SUBMIT.SUCCESS.DOWNLOAD_NOTE')}</p>
            <p>
              <a href={href} download data-testid="pdf-link">
                {t('SUBMIT.SUCCESS.DOWNLOAD_AGAIN')}
              </a>
            </p>
          </>
        )}
      </section>
      {attachments.length > 0 && (
        <section
          className="card form-section"
          aria-labelledby="submit-attachment-title"
          data-testid="attachment-alert"
        >
          <h2 id="submit-attachment-title">{t('SUBMIT.ATTACHMENT.TITLE')}</h2>
          {attachments.includes('abroad') && <p>{t('SUBMIT.ATTACHMENT.TEXT')}</p>}
          {attachments.includes('identity') && <p>{t('SUBMIT.ATTACHMENT.IDENTITY')}</p>}
        </section>
      )}
      <div className="form-actions">
        <Button
          variant="outlined"
          size="l"
          data-testid="submit-exit"
          onClick={() => window.location.assign(withLang('/', lang))}
        >
          {t('SUBMIT.SUCCESS.EXIT')}
        </Button>
      </div>
    </div>
  );
}
