import {
  checkPageTarget,
  isVerified,
  parseValidityAnswer,
  type ValidityAnswer,
  type ValidityId,
  validityCodeMatches,
} from '@ros/domain';
import { useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { ApiRequestError, apiGet } from '../api/client';
import { Button } from '../components/Button';
import { useAlerts } from '../shell/alerts';
import { type Lang, useLang, withLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
import { TextLinks } from '../shell/TextLinks';
import { useHeaderTitle } from '../shell/title';
import { useT } from '../shell/translate';
import { CheckForm } from './CheckForm';
import './validity.css';

/**
 * The validity-check screen (spec sections 2 and 4): `/check?id={recordId}x{code}`, usually opened
 * from the QR code on a certificate; without `id` a form where the certificate is typed
 * (issue 36, CheckForm.tsx); a malformed id goes to not-found (the server answers it 404).
 */

type CheckState =
  | { status: 'loading' }
  | { status: 'error' }
  /** `answer` is null when the server knows no such certificate or the code did not match. */
  | { status: 'finished'; answer: ValidityAnswer | null; verified: boolean };

/** Loads the answer for a well-formed id; a 404 is a result (not verified), not an error. */
async function loadValidity(id: ValidityId): Promise<ValidityAnswer | null> {
  try {
    const raw = await apiGet<unknown>(`/${id.recordId}x${id.code}/validity`);
    const answer = parseValidityAnswer(raw);
    if (!answer) throw new ApiRequestError(0, 'INVALID_RESPONSE', 'Unexpected validity answer');
    return answer;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null;
    throw error;
  }
}

function useValidityCheck(id: ValidityId | null): { state: CheckState; retry: () => void } {
  const [state, setState] = useState<CheckState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const { show } = useAlerts();
  const recordId = id?.recordId;
  const code = id?.code;

  useEffect(() => {
    if (recordId === undefined || code === undefined) return;
    let current = true;
    void attempt;
    setState({ status: 'loading' });
    loadValidity({ recordId, code }).then(
      (answer) => {
        if (!current) return;
        // Spec section 4: a code that does not match the validity date empties the record.
        const kept = answer && validityCodeMatches(answer, code) ? answer : null;
        setState({ status: 'finished', answer: kept, verified: isVerified(kept, code) });
      },
      () => {
        if (!current) return;
        setState({ status: 'error' });
        show({ type: 'warning', key: 'ALERTS.CHECK_VALIDITY_ERROR', timeout: 0 });
      },
    );
    return () => {
      current = false;
    };
  }, [recordId, code, attempt, show]);

  return { state, retry: () => setAttempt((n) => n + 1) };
}

function ResultIcon({ kind }: { kind: 'valid' | 'invalid' | 'error' }) {
  return (
    <svg
      className={`validity__icon validity__icon--${kind}`}
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="32" cy="32" r="32" />
      {kind === 'valid' ? (
        <path d="M17 33.5 27.5 44 47 22.5" />
      ) : kind === 'invalid' ? (
        <path d="M21 21 43 43M43 21 21 43" />
      ) : (
        <path d="M32 16v22M32 46v2" />
      )}
    </svg>
  );
}

function Verified({ answer }: { answer: ValidityAnswer }) {
  const { t } = useT();
  const categories = [
    answer.a1a3 ? { key: 'a1a3', label: t('CHECK.CATEGORY_A1A3'), until: answer.a1a3.valid_until } : null,
    answer.a2 ? { key: 'a2', label: t('CHECK.CATEGORY_A2'), until: answer.a2.valid_until } : null,
  ].filter((c) => c !== null);
  return (
    <div className="validity__result validity__result--valid" data-testid="validity-verified">
      <ResultIcon kind="valid" />
      <h2 className="validity__message">{t('CHECK.VERIFIED')}</h2>
      <dl className="validity__facts">
        <div>
          <dt>{t('CHECK.VALID_UNTIL')}</dt>
          <dd data-testid="validity-date">{answer.data.platnost_do}</dd>
        </div>
        <div>
          <dt>{t('CHECK.ISSUED_FOR')}</dt>
          <dd data-testid="validity-issued-for">
            {answer.data.jmeno}… {answer.data.prijmeni}…
          </dd>
        </div>
      </dl>
      {categories.length > 0 ? (
        <table className="validity__categories" data-testid="validity-categories">
          <caption>{t('CHECK.CATEGORIES')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('CHECK.CATEGORY')}</th>
              <th scope="col">{t('CHECK.CATEGORY_VALID_UNTIL')}</th>
            </tr>
          </thead>
          <tbody>
            {categories.map((c) => (
              <tr key={c.key}>
                <th scope="row">{c.label}</th>
                <td>{c.until}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="validity__note">{t('CHECK.NAMES_NOTE')}</p>
    </div>
  );
}

function NotVerified() {
  const { t } = useT();
  return (
    <div className="validity__result validity__result--invalid" data-testid="validity-not-verified">
      <ResultIcon kind="invalid" />
      <h2 className="validity__message">{t('CHECK.NOT_VERIFIED')}</h2>
      <p className="validity__hint">{t('CHECK.NOT_VERIFIED_HINT')}</p>
    </div>
  );
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useT();
  return (
    <div className="validity__result validity__result--error" data-testid="validity-error">
      <ResultIcon kind="error" />
      <h2 className="validity__message">{t('CHECK.ERROR')}</h2>
      <Button variant="outlined" onClick={onRetry}>
        {t('CHECK.RETRY')}
      </Button>
    </div>
  );
}

const BOT_CHECK_LINKS: Record<'recaptcha' | 'altcha', (lang: Lang) => { privacy: string; terms: string }> = {
  recaptcha: (lang) => ({
    privacy: `https://policies.google.com/privacy?hl=${lang}`,
    terms: `https://policies.google.com/terms?hl=${lang}`,
  }),
  altcha: () => ({
    privacy: 'https://altcha.org/privacy-policy/',
    terms: 'https://altcha.org/terms-of-service/',
  }),
};

/** Spec: a footer line saying the site is protected by the bot-check service, with its policies. */
function BotCheckNotice() {
  const lang = useLang();
  const { botCheckProvider } = useMetadata();
  const provider = botCheckProvider === 'recaptcha' ? 'recaptcha' : 'altcha';
  const links = BOT_CHECK_LINKS[provider](lang);
  return (
    <p className="validity__bot-check" data-testid="validity-bot-check">
      <TextLinks
        i18nKey={`CHECK.BOT_CHECK.${provider.toUpperCase()}`}
        components={{
          // biome-ignore lint/a11y/useAnchorContent: TextLinks puts the translated text inside
          privacy: <a href={links.privacy} rel="noopener" />,
          // biome-ignore lint/a11y/useAnchorContent: TextLinks puts the translated text inside
          terms: <a href={links.terms} rel="noopener" />,
        }}
      />
    </p>
  );
}

export default function ValidityPage() {
  const { t } = useT();
  const lang = useLang();
  const [params] = useSearchParams();
  const target = checkPageTarget(params.get('id'));
  const id = typeof target === 'object' ? target : null;
  useHeaderTitle('TITLE.CHECK');
  const { state, retry } = useValidityCheck(id);

  if (target === 'not-found') return <Navigate to={withLang('/not-found', lang)} replace />;
  if (target === 'form')
    return (
      <div className="validity">
        <h1 className="visually-hidden">{t('CHECK.HEADING')}</h1>
        <CheckForm />
      </div>
    );

  return (
    <div className="validity">
      {/* The header shows this title too; the h1 gives screen readers the page's heading. */}
      <h1 className="visually-hidden" id="validity-heading">
        {t('CHECK.HEADING')}
      </h1>
      <section
        className="validity__box"
        aria-live="polite"
        aria-busy={state.status === 'loading'}
        aria-labelledby="validity-heading"
      >
        {state.status === 'loading' ? (
          <div className="spinner validity__spinner" data-testid="validity-loading">
            <span className="spinner__circle" aria-hidden="true" />
            <span className="spinner__label">{t('FORM.LOADING')}</span>
          </div>
        ) : state.status === 'error' ? (
          <LoadFailed onRetry={retry} />
        ) : state.verified && state.answer ? (
          <Verified answer={state.answer} />
        ) : (
          <NotVerified />
        )}
      </section>
      <BotCheckNotice />
    </div>
  );
}
