import type { Attachment } from '@ros/domain';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { useLang, withLang } from '../shell/lang';
import { pdfPath, type SubmitAnswer } from './submit';

/**
 * The screen after a successful submission (spec section 2 "After success"): the reference
 * number and what to do with the PDF, which the browser starts downloading at once (it is an
 * attachment, so the page stays), a link to download it again, what to attach (the same list the
 * PDF gives, `requiredAttachments` of @ros/domain), and an exit that reloads the app.
 */
export function SuccessView({ answer, attachments }: { answer: SubmitAnswer; attachments: Attachment[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const started = useRef(false);
  const href = pdfPath(answer.id);

  useEffect(() => {
    headingRef.current?.focus();
    if (started.current) return;
    started.current = true;
    window.location.assign(href);
  }, [href]);

  return (
    <div className="request" data-testid="submit-success">
      <section className="card form-section" aria-labelledby="submit-success-title">
        <h2 id="submit-success-title" ref={headingRef} tabIndex={-1}>
          {t('SUBMIT.SUCCESS.HEADING')}
        </h2>
        <p data-testid="submit-reference">
          {answer.reference ? t('SUBMIT.SUCCESS.RECEIVED', { reference: answer.reference }) : answer.text}
        </p>
        <p>{t('SUBMIT.SUCCESS.DOWNLOAD_NOTE')}</p>
        <p>
          <a href={href} download data-testid="pdf-link">
            {t('SUBMIT.SUCCESS.DOWNLOAD_AGAIN')}
          </a>
        </p>
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
