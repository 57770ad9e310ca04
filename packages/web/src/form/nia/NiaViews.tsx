import type { RefObject } from 'react';
import { Button, buttonClass } from '../../components/Button';
import { useLang, withLang } from '../../shell/lang';
import { useT } from '../../shell/translate';
import './nia.css';

/**
 * The error card of an incomplete sign-in (spec sections 4 and 8, ALERTS.SSO_INCOMPLETE): NIA did
 * not release a name or the birth date. It stays on the screen; the user fills in what is missing.
 */
export function NiaIncomplete() {
  const { t } = useT();
  return (
    <div className="alert alert--warning nia-incomplete" data-testid="sso-incomplete">
      <span className="alert__icon" aria-hidden="true" />
      <div className="alert__text">
        <p>
          <strong>{t('FORM.NIA.INCOMPLETE_TITLE')}</strong>
        </p>
        <p>{t('ALERTS.SSO_INCOMPLETE')}</p>
        <p>{t('FORM.NIA.INCOMPLETE_NEXT')}</p>
      </div>
    </div>
  );
}

/**
 * Duplicate mode after a sign-in when the register does not know the person: no certificate, so no
 * duplicate (the persistent FORM.DUPLICATE_NOT_FOUND alert says so). A new request keeps the
 * sign-in (a full load of /form?eid=nia); the user may also fill in the duplicate request anyway.
 */
export function NiaNotFound({
  headingRef,
  incomplete,
  onFill,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  incomplete: boolean;
  onFill: () => void;
}) {
  const { t } = useT();
  const lang = useLang();
  return (
    <section className="card nia-card" aria-labelledby="nia-not-found-title" data-testid="nia-not-found">
      <h2 id="nia-not-found-title" ref={headingRef} tabIndex={-1}>
        {t('FORM.NIA.NOT_FOUND_HEADING')}
      </h2>
      <p>{t('FORM.NIA.NOT_FOUND_TEXT')}</p>
      {incomplete && <NiaIncomplete />}
      <div className="form-actions">
        <a
          href={withLang('/form?eid=nia', lang)}
          className={buttonClass('primary', 'l')}
          data-testid="nia-new-request"
        >
          {t('SEARCH.NEW_REQUEST')}
        </a>
        <Button variant="outlined" size="l" onClick={onFill} data-testid="nia-fill-anyway">
          {t('FORM.NIA.FILL_ANYWAY')}
        </Button>
      </div>
    </section>
  );
}
