import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { Button, buttonClass } from '../../components/Button';
import { useLang, withLang } from '../../shell/lang';
import { useT } from '../../shell/translate';
import './nia.css';

/** The identity fields a sign-in may leave out, in the order the form shows them. */
export type NiaField = 'first_name' | 'last_name' | 'birth_date';
export const NIA_FIELDS: readonly NiaField[] = ['first_name', 'last_name', 'birth_date'];

/** "jméno, příjmení a datum narození" / "first name, last name and date of birth". */
export function fieldList(fields: readonly NiaField[], t: (key: string) => string): string {
  const names = fields.map((f) => t(`FORM.NIA.FIELD.${f}`));
  if (names.length < 2) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${t('FORM.NIA.AND')} ${names[names.length - 1]}`;
}

/**
 * The card of an incomplete sign-in (spec sections 4 and 8; issue 28): it names what NIA did not
 * release (`missing`; empty when NIA only flagged the identity incomplete) and what to do, in
 * words that agree with the intro above it (FORM.NIA.INTRO_INCOMPLETE). It stays on the screen;
 * the user types what is missing.
 */
export function NiaIncomplete({ missing }: { missing: readonly NiaField[] }) {
  const { t } = useT();
  return (
    <div className="alert alert--warning nia-incomplete" data-testid="sso-incomplete">
      <span className="alert__icon" aria-hidden="true" />
      <div className="alert__text">
        <p>
          <strong>{t('FORM.NIA.INCOMPLETE_TITLE')}</strong>
        </p>
        <p>
          {missing.length > 0
            ? t('FORM.NIA.INCOMPLETE_MISSING', { fields: fieldList(missing, t) })
            : t('ALERTS.SSO_INCOMPLETE')}
        </p>
        <p>{t('FORM.NIA.INCOMPLETE_NEXT')}</p>
      </div>
    </div>
  );
}

/**
 * A card that is the screen's answer (the sign-in failed, its details could not be loaded): focus
 * moves to it when it shows and it is named by its text (`textId`), so a screen reader reads it
 * once, on focus, and the next Tab reaches its ways on. Not a live region: a region put in with its
 * text is often not read, and one that is also focused is read twice (issue 35).
 */
export function FocusedCard({
  textId,
  testId,
  children,
}: {
  textId: string;
  testId: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section ref={ref} tabIndex={-1} aria-labelledby={textId} className="card nia-card" data-testid={testId}>
      {children}
    </section>
  );
}

/**
 * After a cancelled or failed sign-in (the server adds sso=failed): what happened and both ways
 * on, signing in again or going on without it (issue 28). Signing in again is offered only while
 * the sign-in is switched on.
 */
export function SsoFailed({ signInHref, onContinue }: { signInHref: string | null; onContinue: () => void }) {
  const { t } = useT();
  return (
    <FocusedCard textId="sso-failed-text" testId="sso-failed">
      <p id="sso-failed-text">{t(signInHref ? 'ALERTS.SSO_FAILED' : 'ALERTS.SSO_FAILED_OFF')}</p>
      <div className="form-actions">
        {signInHref && (
          <a href={signInHref} className={buttonClass('primary', 'l')} data-testid="sso-sign-in-again">
            {t('FORM.NIA.SESSION.SIGN_IN_AGAIN')}
          </a>
        )}
        <Button variant="outlined" size="l" onClick={onContinue} data-testid="sso-continue-without">
          {t('FORM.NIA.CONTINUE_WITHOUT')}
        </Button>
      </div>
    </FocusedCard>
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
  missing,
  onFill,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  incomplete: boolean;
  missing: readonly NiaField[];
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
      {incomplete && <NiaIncomplete missing={missing} />}
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
