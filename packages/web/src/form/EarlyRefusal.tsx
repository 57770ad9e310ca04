import type { RefusalReason } from '@ros/domain';
import { useEffect, useRef } from 'react';
import { Button, buttonClass } from '../components/Button';
import { LangLink, useLang } from '../shell/lang';
import { useT } from '../shell/translate';
import { reasonText } from './refusalText';

/**
 * Told early (issue 36): when the search (or the NIA sign-in) proves who the person is and the
 * register shows a certificate valid beyond the renewal window or a request in the repeat window,
 * this says so before the form, with the dates, in the confirmation dialog's words (refusalText.ts).
 * The person may still fill in the request: the authority decides.
 */
export function EarlyRefusal({ reason, onContinue }: { reason: RefusalReason; onContinue: () => void }) {
  const { t } = useT();
  const lang = useLang();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section
      className="card form-notice form-notice--warning"
      aria-labelledby="early-refusal-title"
      data-testid="early-refusal"
      data-rule={reason.rule}
    >
      <h2 id="early-refusal-title" ref={headingRef} tabIndex={-1}>
        {t('FORM.EARLY_REFUSAL.TITLE')}
      </h2>
      <p data-testid="early-refusal-reason">{reasonText(reason, lang, t)}</p>
      <p>{t('FORM.EARLY_REFUSAL.NOTE')}</p>
      <div className="form-actions">
        <Button onClick={onContinue} data-testid="early-refusal-continue">
          {t('FORM.EARLY_REFUSAL.CONTINUE')}
        </Button>
        <LangLink to="/" className={buttonClass('link')} data-testid="early-refusal-home">
          {t('FORM.EARLY_REFUSAL.HOME')}
        </LangLink>
      </div>
    </section>
  );
}
