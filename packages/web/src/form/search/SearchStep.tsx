import { SEARCH_MAX } from '@ros/domain';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/Button';
import { InlineMessage, useAlerts } from '../../shell/alerts';
import { LangLink, useLang } from '../../shell/lang';
import { useMetadata } from '../../shell/metadata';
import { TextLinks } from '../../shell/TextLinks';
import { useT } from '../../shell/translate';
import { BotCheckWidget } from '../botcheck';
import { Field } from '../LabelledField';
import type { RetryFrom } from '../nia/niaStart';
import { asksBirthNumber, firstPhase, type SearchOutcome, type SearchPhase } from './phase';
import { SearchTextField } from './SearchTextField';
import { useDocumentTypes } from './useDocumentTypes';
import { useSearchCall } from './useSearchCall';
import { documentProof, useSearchForms } from './useSearchForms';

/**
 * Step 1 of the request form (spec sections 2 and 4): find the person by names and identity
 * document; in duplicate mode a person without a certificate is asked for the birth number
 * (the retry state). The phases: `phase.ts`.
 */
export function SearchStep({
  duplicate,
  onDone,
  retryFrom,
}: {
  duplicate: boolean;
  onDone: (o: SearchOutcome) => void;
  /** Start in the retry state with these locked details (after a NIA sign-in, duplicate mode). */
  retryFrom?: RetryFrom;
}) {
  const { t } = useT();
  const lang = useLang();
  const metadata = useMetadata();
  const alerts = useAlerts();
  const types = useDocumentTypes();
  const { form, retryForm, markChanged, showAll, shownError } = useSearchForms({
    duplicate,
    retryFrom,
    typesLoaded: types.loaded,
  });
  const { busy, notice, setNotice, call } = useSearchCall();
  const [phase, setPhase] = useState<SearchPhase>(() => firstPhase(retryFrom));
  const retry = asksBirthNumber(phase);

  // The retry's "we found you, but no certificate: enter your birth number" (issue 35): in the
  // region right above the birth-number box, which is in the page (empty) before it, so it is read
  // out when it arrives. After a sign-in the step starts in the retry state: the message comes
  // just after the first paint, into the region that paint put in.
  const [retryShown, setRetryShown] = useState(false);
  const focusBirthNumber = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the state the step starts in
  useEffect(() => {
    if (!retryFrom) return;
    focusBirthNumber.current = true;
    setRetryShown(true);
  }, []);

  const onSearch = form.handleSubmit(async (values) => {
    const person = await call('/search', { ...values, duplicate });
    if (person === undefined) return;
    if (person === null) {
      setPhase({ kind: 'notFound' });
      // Under the button, where focus is (issue 35), in both modes.
      setNotice({
        type: 'warning',
        key: duplicate ? 'FORM.DUPLICATE_NOT_FOUND.DESCRIPTION' : 'ALERTS.DOCUMENT_INVALID',
      });
      return;
    }
    if (duplicate && !person.record) {
      focusBirthNumber.current = true;
      setPhase({ kind: 'birthNumber', match: person.match });
      setRetryShown(true);
      return;
    }
    alerts.clear();
    onDone({ kind: 'found', person });
  }, showAll);

  const onRetry = retryForm.handleSubmit(async (values) => {
    if (!asksBirthNumber(phase)) return;
    // The token of the search before, else the names and document the retry keeps locked.
    const proof = phase.match ? { match: phase.match } : documentProof(form.getValues());
    const person = await call('/search-birth-number', { birth_number: values.birth_number, ...proof });
    if (person === undefined) return;
    if (person === null) {
      setPhase({ kind: 'birthNumberNotFound', match: phase.match });
      setNotice({ type: 'warning', key: 'FORM.DUPLICATE_RETRY.FAILED' });
      return;
    }
    alerts.clear();
    onDone({ kind: 'found', person });
  }, showAll);

  // The answer of a search (the way on to filling in by hand, a notice) comes into view with
  // it, also at 375 px, where it would fall below the screen (issue 28).
  const resultRef = useRef<HTMLDivElement>(null);
  const answered = phase.kind !== 'idle';
  useEffect(() => {
    if (!answered && !notice) return;
    const block = resultRef.current;
    if (!block) return;
    const below = block.parentElement?.querySelector('[data-testid="search-notice"]') ?? block;
    below.scrollIntoView?.({ block: 'nearest' });
    block.scrollIntoView?.({ block: 'nearest' });
  }, [answered, notice]);

  // The retry asks for the birth number: focus moves to its new box (issue 27), not left on the
  // button, and the message above it comes into view with it, also at 320 px (after the scroll
  // above, which this one overrides).
  useEffect(() => {
    if (!retry || !retryShown || !focusBirthNumber.current) return;
    focusBirthNumber.current = false;
    const box = document.getElementById('birth_number');
    box?.focus({ preventScroll: true });
    document.querySelector('[data-testid="retry-notice"]')?.scrollIntoView?.({ block: 'nearest' });
    box?.scrollIntoView?.({ block: 'nearest' });
  }, [retry, retryShown]);

  const type = form.watch('type');
  const cannotSearch = busy || (retry ? !retryForm.formState.isValid : !form.formState.isValid);
  const birthNumberError = shownError('birth_number', SEARCH_MAX.birthNumber);

  return (
    <section className="search card" aria-labelledby="search-title">
      <h2 id="search-title">{t('SEARCH.HEADING')}</h2>
      <p>{t(duplicate ? 'SEARCH.INTRO_DUPLICATE' : 'SEARCH.INTRO')}</p>
      <form
        noValidate
        onSubmit={(e) => {
          if (busy) {
            e.preventDefault();
            return;
          }
          // An invalid form: handleSubmit shows every message instead of searching.
          void (retry ? onRetry : onSearch)(e);
        }}
        aria-busy={busy}
        className="search__form"
      >
        <div className="search__grid">
          <SearchTextField
            registration={form.register('first_name', { onChange: markChanged('first_name') })}
            label={t('FORM.FIELDS.first_name')}
            error={shownError('first_name', SEARCH_MAX.name)}
            autoComplete="given-name"
            maxLength={SEARCH_MAX.name}
            readOnly={retry}
          />
          <SearchTextField
            registration={form.register('last_name', { onChange: markChanged('last_name') })}
            label={t('FORM.FIELDS.last_name')}
            error={shownError('last_name', SEARCH_MAX.name)}
            autoComplete="family-name"
            maxLength={SEARCH_MAX.name}
            readOnly={retry}
          />
          <Field id="type" label={t('FORM.FIELDS.document_type')} error={shownError('type')}>
            {(describedBy, invalid) => (
              <select
                id="type"
                className="input"
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                aria-required="true"
                disabled={retry}
                {...form.register('type', { onChange: markChanged('type') })}
              >
                <option value="">{t('SEARCH.CHOOSE_TYPE')}</option>
                {types.options.map((d) => (
                  <option key={d.code} value={d.code}>
                    {d.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <SearchTextField
            registration={form.register('number', { onChange: markChanged('number') })}
            label={t('FORM.FIELDS.document_number')}
            hint={type ? undefined : t('SEARCH.NUMBER_HINT')}
            error={shownError('number', SEARCH_MAX.documentNumber)}
            autoComplete="off"
            maxLength={SEARCH_MAX.documentNumber}
            disabled={!type || retry}
          />
          {duplicate && (
            <InlineMessage
              message={
                retry && retryShown ? { type: 'warning', key: 'FORM.DUPLICATE_RETRY.DESCRIPTION' } : null
              }
              onDismiss={() => setRetryShown(false)}
              focusAfter={() => document.getElementById('birth_number')}
              testId="retry-notice"
            />
          )}
          {retry && (
            <SearchTextField
              registration={retryForm.register('birth_number', { onChange: markChanged('birth_number') })}
              label={t('FORM.FIELDS.birth_number')}
              hint={t('SEARCH.BIRTH_NUMBER_HINT')}
              error={birthNumberError}
              inputMode="numeric"
              autoComplete="off"
              maxLength={SEARCH_MAX.birthNumber}
            />
          )}
        </div>

        <BotCheckWidget settings={metadata} lang={lang} deferred />
        <p className="search__captcha-notice">
          {metadata.botCheckProvider === 'recaptcha' ? (
            <TextLinks
              i18nKey="SEARCH.CAPTCHA_NOTICE_RECAPTCHA"
              components={{
                // biome-ignore lint/a11y/useAnchorContent: TextLinks puts the translated text inside
                privacy: <a href="https://policies.google.com/privacy" target="_blank" rel="noreferrer" />,
                // biome-ignore lint/a11y/useAnchorContent: TextLinks puts the translated text inside
                terms: <a href="https://policies.google.com/terms" target="_blank" rel="noreferrer" />,
              }}
            />
          ) : (
            t('SEARCH.CAPTCHA_NOTICE_ALTCHA')
          )}
        </p>

        <div className="search__actions" ref={resultRef}>
          <Button
            type="submit"
            variant="primary"
            size="l"
            expandMobile
            // Focusable while it cannot search, with the reason as its description (a disabled
            // button is skipped by Tab, so a keyboard user could not learn why).
            aria-disabled={cannotSearch || undefined}
            aria-describedby={cannotSearch && !busy ? 'search-gate' : undefined}
            data-testid="search-submit"
          >
            {busy ? t('SEARCH.SEARCHING') : t(retry ? 'SEARCH.RETRY_SUBMIT' : 'SEARCH.SUBMIT')}
          </Button>
          {answered && (
            <Button
              variant="outlined"
              size="l"
              expandMobile
              onClick={() => {
                // The search's "not found" warning is about the search, not the form that follows.
                alerts.clear();
                onDone({ kind: 'manual', typed: form.getValues() });
              }}
              data-testid="fill-without-document"
            >
              {t('SEARCH.WITHOUT_DOCUMENT')}
            </Button>
          )}
        </div>
        <InlineMessage
          message={notice}
          onDismiss={() => setNotice(null)}
          focusAfter={() => document.querySelector<HTMLElement>('[data-testid="search-submit"]')}
          testId="search-notice"
        />
        {cannotSearch && !busy && (
          <p id="search-gate" className="field__hint search__gate">
            {t(retry ? 'SEARCH.GATE_RETRY' : 'SEARCH.GATE')}
          </p>
        )}
        {duplicate && answered && (
          <p className="search__new-request">
            <LangLink to="/form">{t('SEARCH.NEW_REQUEST')}</LangLink>
          </p>
        )}
        <p className="visually-hidden" role="status" aria-live="polite">
          {busy ? t('SEARCH.SEARCHING') : ''}
        </p>
      </form>
    </section>
  );
}
