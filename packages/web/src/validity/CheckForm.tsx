import { typedValidityId } from '@ros/domain';
import { type FormEvent, useRef, useState } from 'react';
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
  const [error, setError] = useState(false);
  const numberRef = useRef<HTMLInputElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const id = typedValidityId(number, date);
    if (!id) {
      setError(true);
      numberRef.current?.focus();
      return;
    }
    navigate(`/check?id=${id.recordId}x${id.code}`);
  };

  const describedBy = (hint: string) => `${hint}${error ? ' check-error' : ''}`;
  return (
    <form className="check-form" onSubmit={submit} noValidate data-testid="check-form">
      <h2 className="check-form__title">{t('CHECK.FORM.TITLE')}</h2>
      <p>{t('CHECK.FORM.INTRO')}</p>
      <div className="check-field">
        <label htmlFor="check-number" className="check-field__label">
          {t('CHECK.FORM.NUMBER')}
        </label>
        <p id="check-number-hint" className="check-field__hint">
          {t('CHECK.FORM.NUMBER_HINT')}
        </p>
        <input
          ref={numberRef}
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
      {error ? (
        <p id="check-error" className="check-field__error" role="alert" data-testid="check-form-error">
          {t('CHECK.FORM.ERROR')}
        </p>
      ) : null}
      <Button type="submit" size="l" expandMobile data-testid="check-submit">
        {t('CHECK.FORM.SUBMIT')}
      </Button>
    </form>
  );
}
