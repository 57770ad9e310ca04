import { typedValidityId } from '@ros/domain';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../components/Button';
import { useLangNavigate } from '../shell/lang';
import { useT } from '../shell/translate';

/**
 * `/check` without a link (issue 36): a person holding a paper certificate types its number and
 * validity date (or the whole id printed under its QR code); @ros/domain's typedValidityId makes
 * the link's id by the same rule as the route, and the page opens `/check?id=…`.
 */
export function CheckForm() {
  const { t } = useT();
  const navigate = useLangNavigate();
  const [number, setNumber] = useState('');
  const [date, setDate] = useState('');
  // Counts the refused checks: each one moves focus to the message again.
  const [refused, setRefused] = useState(0);
  const error = refused > 0;
  const errorRef = useRef<HTMLElement>(null);
  // A refused check: focus goes to the message above the boxes, named by its words, so it is read
  // once, on focus, wherever the check was asked from (the button, or Enter in either box); the
  // next Tab reaches the number. Not a live region as well, which would have it said twice (issue
  // 35). The boxes keep it as their description, for when the person comes back to them.
  useEffect(() => {
    if (refused > 0) errorRef.current?.focus();
  }, [refused]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const id = typedValidityId(number, date);
    if (!id) {
      setRefused((n) => n + 1);
      return;
    }
    navigate(`/check?id=${id.recordId}x${id.code}`);
  };

  const describedBy = (hint: string) => `${hint}${error ? ' check-error' : ''}`;
  return (
    <form className="check-form" onSubmit={submit} noValidate data-testid="check-form">
      <h2 className="check-form__title">{t('CHECK.FORM.TITLE')}</h2>
      <p>{t('CHECK.FORM.INTRO')}</p>
      {error ? (
        <section
          ref={errorRef}
          tabIndex={-1}
          aria-labelledby="check-error"
          className="check-form__error"
          data-testid="check-form-error"
        >
          <p id="check-error" className="check-field__error">
            {t('CHECK.FORM.ERROR')}
          </p>
        </section>
      ) : null}
      <div className="check-field">
        <label htmlFor="check-number" className="check-field__label">
          {t('CHECK.FORM.NUMBER')}
        </label>
        <p id="check-number-hint" className="check-field__hint">
          {t('CHECK.FORM.NUMBER_HINT')}
        </p>
        <input
          id="check-number"
          name="number"
          className="check-field__input"
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          autoComplete="off"
          inputMode="text"
          spellCheck={false}
          maxLength={40}
          aria-invalid={error || undefined}
          aria-describedby={describedBy('check-number-hint')}
        />
      </div>
      <div className="check-field">
        <label htmlFor="check-date" className="check-field__label">
          {t('CHECK.FORM.DATE')}
        </label>
        <p id="check-date-hint" className="check-field__hint">
          {t('CHECK.FORM.DATE_HINT')}
        </p>
        <input
          id="check-date"
          name="valid_until"
          className="check-field__input"
          value={date}
          onChange={(e) => setDate(e.target.value)}
          autoComplete="off"
          inputMode="numeric"
          maxLength={20}
          aria-invalid={error || undefined}
          aria-describedby={describedBy('check-date-hint')}
        />
      </div>
      <Button type="submit" size="l" expandMobile data-testid="check-submit">
        {t('CHECK.FORM.SUBMIT')}
      </Button>
    </form>
  );
}
