import { type RefObject, useEffect } from 'react';
import { Button, buttonClass } from '../components/Button';
import { LangLink } from '../shell/lang';
import { usePageTitle } from '../shell/title';
import { useT } from '../shell/translate';

/**
 * What a history entry of a sent request shows once the person has left its success screen
 * (issue 28, a shared computer): that the request was sent, none of its details, and the ways on.
 * The success screen's details lived in the page's memory only and are gone (sentEntry.ts).
 */
export function AlreadySent({
  headingRef,
  onNew,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  onNew: () => void;
}) {
  const { t } = useT();
  usePageTitle('FORM.SENT.HEADING');
  useEffect(() => headingRef.current?.focus(), [headingRef]);
  return (
    <section className="card" aria-labelledby="already-sent-title" data-testid="already-sent">
      <h2 id="already-sent-title" ref={headingRef} tabIndex={-1}>
        {t('FORM.SENT.HEADING')}
      </h2>
      <p>{t('FORM.SENT.TEXT')}</p>
      <div className="form-actions already-sent__actions">
        <Button size="l" onClick={onNew} data-testid="already-sent-new">
          {t('FORM.SENT.NEW')}
        </Button>
        <LangLink to="/" className={buttonClass('outlined', 'l')}>
          {t('SUBMIT.SUCCESS.EXIT')}
        </LangLink>
      </div>
    </section>
  );
}
