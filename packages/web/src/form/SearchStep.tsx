import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CodeItem,
  SEARCH_MAX,
  type SearchAnswer,
  searchByBirthNumberSchema,
  searchByDocumentSchema,
} from '@ros/domain';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiRequestError, apiGet, apiPost } from '../api/client';
import { Button } from '../components/Button';
import { TextLinks } from '../components/TextLinks';
import { useAlerts } from '../shell/alerts';
import { LangLink, useLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
import { useT } from '../shell/translate';
import { BotCheckError, BotCheckWidget, getBotToken, resetBotCheck } from './botcheck';
import { Field, useValidationText } from './fields';
import type { RetryFrom } from './nia/niaStart';
import type { TypedInSearch } from './prefillStart';

/** An item of GET /api/ros/document-types (the API contract). */
type DocumentType = CodeItem;

interface SearchValues {
  first_name: string;
  last_name: string;
  type: string;
  number: string;
}

const FALLBACK_TYPES: DocumentType[] = [
  { code: 'OP_CR', name_cz: 'Občanský průkaz ČR', name_en: 'Czech identity card' },
  { code: 'PAS', name_cz: 'Cestovní pas', name_en: 'Passport' },
];

const documentSchema = searchByDocumentSchema.pick({
  first_name: true,
  last_name: true,
  type: true,
  number: true,
});

export type SearchOutcome =
  | { kind: 'found'; person: SearchAnswer }
  /** Fill in without a document: what was typed in the search goes on into the form. */
  | { kind: 'manual'; typed: TypedInSearch };

/**
 * Step 1 of the request form (spec sections 2 and 4): find the person by names and identity
 * document; in duplicate mode a person without a certificate is asked for the birth number
 * (retry state).
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
  const text = useValidationText();
  const [types, setTypes] = useState<DocumentType[]>([]);
  const [loading, setLoading] = useState(false);
  const [searched, setSearched] = useState(Boolean(retryFrom));
  const [notFound, setNotFound] = useState(false);
  const [retry, setRetry] = useState(Boolean(retryFrom));
  const [retryFailed, setRetryFailed] = useState(false);

  const form = useForm<SearchValues>({
    mode: 'onChange',
    defaultValues: retryFrom ?? { first_name: '', last_name: '', type: '', number: '' },
    resolver: zodResolver(documentSchema) as never,
  });
  const { register, formState, watch, handleSubmit } = form;
  const retryForm = useForm<{ birth_number: string }>({
    mode: 'onChange',
    defaultValues: { birth_number: '' },
    resolver: zodResolver(searchByBirthNumberSchema) as never,
  });

  useEffect(() => {
    let live = true;
    // Without the list the two known types still let the user search.
    apiGet<DocumentType[]>('/document-types')
      .then((list) => {
        if (live) setTypes(Array.isArray(list) && list.length > 0 ? list : FALLBACK_TYPES);
      })
      .catch(() => {
        if (live) setTypes(FALLBACK_TYPES);
      });
    return () => {
      live = false;
    };
  }, []);

  // The type's option exists only once the list has loaded.
  useEffect(() => {
    if (retryFrom && types.length > 0) form.setValue('type', retryFrom.type);
  }, [retryFrom, types, form]);

  const type = watch('type');
  // "Changed by the user" as the spec means it: once edited, even back to empty.
  const [changed, setChanged] = useState<ReadonlySet<string>>(new Set());
  const markChanged = (name: string) => () =>
    setChanged((prev) => (prev.has(name) ? prev : new Set(prev).add(name)));
  const shownError = (name: keyof SearchValues, max?: number) => {
    const state = form.getFieldState(name, formState);
    return state.invalid && changed.has(name) ? text(state.error, max) : '';
  };

  /** Runs a search call with a fresh bot-check token; undefined on any failure (alert shown). */
  async function call(path: string, body: object): Promise<SearchAnswer | null | undefined> {
    setLoading(true);
    try {
      const token = await getBotToken('SearchAction', metadata);
      return await apiPost<SearchAnswer>(path, body, { Recaptcha: token });
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 404) return null;
      if (
        err instanceof BotCheckError ||
        (err instanceof ApiRequestError && err.code.startsWith('BOT_CHECK'))
      ) {
        alerts.show({ type: 'danger', key: 'SEARCH.BOT_CHECK_FAILED', timeout: 0 });
      } else if (err instanceof ApiRequestError && err.status === 429) {
        alerts.show({ type: 'warning', key: 'SEARCH.RATE_LIMITED', timeout: 0 });
      } else {
        alerts.show({ type: 'danger', key: 'SEARCH.ERROR' });
      }
      return undefined;
    } finally {
      // The token was used (or refused): the next search solves a new challenge.
      resetBotCheck();
      setLoading(false);
    }
  }

  // Searching with a gap: every message shows (the first invalid box takes focus).
  const showAll = () => setChanged(new Set(['first_name', 'last_name', 'type', 'number', 'birth_number']));
  const onSearch = handleSubmit(async (values) => {
    const person = await call('/search', { ...values, duplicate });
    if (person === undefined) return;
    setSearched(true);
    if (person === null) {
      if (duplicate) {
        setNotFound(true);
        alerts.show({ type: 'warning', key: 'FORM.DUPLICATE_NOT_FOUND.DESCRIPTION', timeout: 0 });
      } else {
        alerts.show({ type: 'warning', key: 'ALERTS.DOCUMENT_INVALID' });
      }
      return;
    }
    if (duplicate && !person.record) {
      setRetry(true);
      alerts.show({ type: 'warning', key: 'FORM.DUPLICATE_RETRY.DESCRIPTION', timeout: 0 });
      return;
    }
    alerts.clear();
    onDone({ kind: 'found', person });
  }, showAll);

  const onRetry = retryForm.handleSubmit(async (values) => {
    const person = await call('/search-birth-number', { birth_number: values.birth_number });
    if (person === undefined) return;
    if (person === null) {
      setRetryFailed(true);
      alerts.show({ type: 'warning', key: 'FORM.DUPLICATE_RETRY.FAILED', timeout: 0 });
      return;
    }
    alerts.clear();
    onDone({ kind: 'found', person });
  }, showAll);

  const cannotSearch = loading || (retry ? !retryForm.formState.isValid : !formState.isValid);
  const typeName = (d: DocumentType) => (lang === 'en' ? d.name_en : d.name_cz);
  const bnState = retryForm.getFieldState('birth_number', retryForm.formState);
  const bnError =
    bnState.invalid && changed.has('birth_number') ? text(bnState.error, SEARCH_MAX.birthNumber) : '';

  return (
    <section className="search card" aria-labelledby="search-title">
      <h2 id="search-title">{t('SEARCH.HEADING')}</h2>
      <p>{t(duplicate ? 'SEARCH.INTRO_DUPLICATE' : 'SEARCH.INTRO')}</p>
      <form
        noValidate
        onSubmit={(e) => {
          if (loading) {
            e.preventDefault();
            return;
          }
          // An invalid form: handleSubmit shows every message instead of searching.
          void (retry ? onRetry : onSearch)(e);
        }}
        aria-busy={loading}
        className="search__form"
      >
        <div className="search__grid">
          <Field
            id="first_name"
            label={t('FORM.FIELDS.first_name')}
            error={shownError('first_name', SEARCH_MAX.name)}
          >
            {(describedBy, invalid) => (
              <input
                id="first_name"
                className="input"
                autoComplete="given-name"
                maxLength={SEARCH_MAX.name}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                aria-required="true"
                readOnly={retry}
                {...register('first_name', { onChange: markChanged('first_name') })}
              />
            )}
          </Field>
          <Field
            id="last_name"
            label={t('FORM.FIELDS.last_name')}
            error={shownError('last_name', SEARCH_MAX.name)}
          >
            {(describedBy, invalid) => (
              <input
                id="last_name"
                className="input"
                autoComplete="family-name"
                maxLength={SEARCH_MAX.name}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                aria-required="true"
                readOnly={retry}
                {...register('last_name', { onChange: markChanged('last_name') })}
              />
            )}
          </Field>
          <Field id="type" label={t('FORM.FIELDS.document_type')} error={shownError('type')}>
            {(describedBy, invalid) => (
              <select
                id="type"
                className="input"
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                aria-required="true"
                disabled={retry}
                {...register('type', { onChange: markChanged('type') })}
              >
                <option value="">{t('SEARCH.CHOOSE_TYPE')}</option>
                {types.map((d) => (
                  <option key={d.code} value={d.code}>
                    {typeName(d)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id="number"
            label={t('FORM.FIELDS.document_number')}
            hint={type ? undefined : t('SEARCH.NUMBER_HINT')}
            error={shownError('number', SEARCH_MAX.documentNumber)}
          >
            {(describedBy, invalid) => (
              <input
                id="number"
                className="input"
                autoComplete="off"
                maxLength={SEARCH_MAX.documentNumber}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                aria-required="true"
                disabled={!type || retry}
                {...register('number', { onChange: markChanged('number') })}
              />
            )}
          </Field>
          {retry && (
            <Field
              id="birth_number"
              label={t('FORM.FIELDS.birth_number')}
              hint={t('SEARCH.BIRTH_NUMBER_HINT')}
              error={bnError}
            >
              {(describedBy, invalid) => (
                <input
                  id="birth_number"
                  className="input"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={SEARCH_MAX.birthNumber}
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  aria-required="true"
                  {...retryForm.register('birth_number', { onChange: markChanged('birth_number') })}
                />
              )}
            </Field>
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

        <div className="search__actions">
          <Button
            type="submit"
            variant="primary"
            size="l"
            expandMobile
            // Focusable while it cannot search, with the reason as its description (a disabled
            // button is skipped by Tab, so a keyboard user could not learn why).
            aria-disabled={cannotSearch || undefined}
            aria-describedby={cannotSearch && !loading ? 'search-gate' : undefined}
            data-testid="search-submit"
          >
            {loading ? t('SEARCH.SEARCHING') : t(retry ? 'SEARCH.RETRY_SUBMIT' : 'SEARCH.SUBMIT')}
          </Button>
          {searched && (
            <Button
              variant="outlined"
              size="l"
              expandMobile
              onClick={() => onDone({ kind: 'manual', typed: form.getValues() })}
              data-testid="fill-without-document"
            >
              {t('SEARCH.WITHOUT_DOCUMENT')}
            </Button>
          )}
        </div>
        {cannotSearch && !loading && (
          <p id="search-gate" className="field__hint search__gate">
            {t(retry ? 'SEARCH.GATE_RETRY' : 'SEARCH.GATE')}
          </p>
        )}
        {duplicate && (notFound || retry || retryFailed) && (
          <p className="search__new-request">
            <LangLink to="/form">{t('SEARCH.NEW_REQUEST')}</LangLink>
          </p>
        )}
        <p className="visually-hidden" role="status" aria-live="polite">
          {loading ? t('SEARCH.SEARCHING') : ''}
        </p>
      </form>
    </section>
  );
}
