import {
  formatAccessCode,
  normalizeAccessCode,
  parseReference,
  parseStatusFragment,
  requestState,
  type StatusAnswer,
  stateWords,
} from '@ros/domain';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Button } from '../components/Button';
import { useLang } from '../shell/lang';
import { useHeaderTitle } from '../shell/title';
import { useT } from '../shell/translate';
import { type LookupResult, lookUpStatus } from './lookup';
import { Timeline } from './Timeline';
import './status.css';

/**
 * The request status page (issue 26, docs/status.md): `/stav-zadosti` (and `/request-status`),
 * `?lang=en` for English. The applicant types the reference number and the access code from the
 * PDF, or opens the link of the PDF's QR code or of the e-mail, which carries both in the
 * fragment (`#ROS-2026-000001/ABCDEFGHJKLM`: never sent to a server, never in an access log).
 * The answer shows statuses and dates only: no name, nothing else of the person.
 */

type PageState = { kind: 'form' } | { kind: 'loading' } | LookupResult;

interface Typed {
  reference: string;
  code: string;
}

type Problem = 'not-found' | 'limited' | 'error';

/**
 * The look-up form. It stays in the page while the answer loads and when the answer is a
 * problem (no remount: a screen reader does not read every label again), and it is not inside a
 * live region: the problem is read once, when focus moves to it, named by its words (issue 35).
 */
function StatusForm({
  initial,
  problem,
  busy,
  onLookUp,
  onEdit,
}: {
  initial: Typed;
  /** The answer of the last look-up, shown above the fields. */
  problem: Problem | null;
  busy: boolean;
  onLookUp: (t: Typed) => void;
  /** A new attempt the browser refuses: the last answer goes away. */
  onEdit: () => void;
}) {
  const { t } = useT();
  const [reference, setReference] = useState(initial.reference);
  const [code, setCode] = useState(initial.code);
  const [errors, setErrors] = useState<{ reference?: string; code?: string }>({});
  const referenceRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const problemRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (problem) problemRef.current?.focus();
  }, [problem]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = {
      reference: parseReference(reference) ? undefined : t('STATUS.FORM.REFERENCE_ERROR'),
      code: normalizeAccessCode(code) ? undefined : t('STATUS.FORM.CODE_ERROR'),
    };
    if (busy) return;
    setErrors(next);
    if (next.reference || next.code) onEdit();
    if (next.reference) referenceRef.current?.focus();
    else if (next.code) codeRef.current?.focus();
    else onLookUp({ reference, code });
  };

  const field = (
    id: 'reference' | 'code',
    value: string,
    set: (v: string) => void,
    ref: React.RefObject<HTMLInputElement | null>,
  ) => {
    const error = errors[id];
    const key = id === 'reference' ? 'REFERENCE' : 'CODE';
    return (
      <div className={`status-field${error ? ' status-field--invalid' : ''}`}>
        <label htmlFor={`status-${id}`} className="status-field__label">
          {t(`STATUS.FORM.${key}`)}
        </label>
        <p id={`status-${id}-hint`} className="status-field__hint">
          {t(`STATUS.FORM.${key}_HINT`)}
        </p>
        <input
          ref={ref}
          id={`status-${id}`}
          name={id}
          className="status-field__input"
          value={value}
          onChange={(e) => set(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          aria-invalid={error ? true : undefined}
          aria-describedby={`status-${id}-hint${error ? ` status-${id}-error` : ''}`}
        />
        {error ? (
          <p id={`status-${id}-error`} className="status-field__error">
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <form className="status-form" onSubmit={submit} noValidate data-testid="status-form">
      {problem ? (
        <section
          ref={problemRef}
          tabIndex={-1}
          aria-labelledby="status-problem-text"
          className="status-problem"
          data-testid={`status-${problem}`}
        >
          <p id="status-problem-text">
            {t(
              `STATUS.PROBLEM.${problem === 'not-found' ? 'NOT_FOUND' : problem === 'limited' ? 'LIMITED' : 'ERROR'}`,
            )}
          </p>
        </section>
      ) : null}
      <p>{t('STATUS.FORM.INTRO')}</p>
      {field('reference', reference, setReference, referenceRef)}
      {field('code', code, setCode, codeRef)}
      <Button
        type="submit"
        size="l"
        expandMobile
        aria-disabled={busy || undefined}
        data-testid="status-submit"
      >
        {t('STATUS.FORM.SUBMIT')}
      </Button>
      {busy && (
        <div className="spinner" data-testid="status-loading" aria-hidden="true">
          <span className="spinner__circle" />
          <span className="spinner__label">{t('FORM.LOADING')}</span>
        </div>
      )}
    </form>
  );
}

function Result({
  answer,
  code,
  onAnother,
}: {
  answer: StatusAnswer;
  /** The access code it was opened with: shown, as the success screen cannot be reached again (issue 36). */
  code: string;
  onAnother: () => void;
}) {
  const { t } = useT();
  const lang = useLang();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section className="status-result" aria-labelledby="status-result-title" data-testid="status-result">
      <h2 id="status-result-title" ref={headingRef} tabIndex={-1} className="status-result__title">
        {t('STATUS.RESULT.TITLE', { reference: answer.reference })}
      </h2>
      <p className="status-result__now" data-testid="status-now">
        {t('STATUS.RESULT.NOW')}{' '}
        <strong>{stateWords(lang, requestState(answer.status, answer.channel)).state}</strong>
      </p>
      <Timeline answer={answer} />
      <p className="status-result__code" data-testid="status-code">
        {t('STATUS.RESULT.CODE')} <strong>{formatAccessCode(normalizeAccessCode(code) ?? code)}</strong>
        <br />
        {t('STATUS.RESULT.CODE_KEEP')}
      </p>
      <p className="status-result__privacy">{t('STATUS.RESULT.PRIVACY')}</p>
      <Button variant="outlined" onClick={onAnother} data-testid="status-another">
        {t('STATUS.RESULT.ANOTHER')}
      </Button>
    </section>
  );
}

export default function StatusPage() {
  const { t } = useT();
  useHeaderTitle('TITLE.STATUS');
  const { hash } = useLocation();
  const fromLink = parseStatusFragment(hash);
  const [typed, setTyped] = useState<Typed>(fromLink ?? { reference: '', code: '' });
  const [state, setState] = useState<PageState>(fromLink ? { kind: 'loading' } : { kind: 'form' });

  const lookUp = (v: Typed) => {
    setTyped(v);
    setState({ kind: 'loading' });
    void lookUpStatus(v.reference, v.code).then(setState);
  };

  // A link with the reference and the code: look it up at once (once per link).
  const linkKey = fromLink ? `${fromLink.reference}/${fromLink.code}` : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per link
  useEffect(() => {
    if (fromLink) lookUp(fromLink);
  }, [linkKey]);

  return (
    <div className="status-page">
      <h1 className="status-page__heading">{t('STATUS.HEADING')}</h1>
      {/* In the page from the start: "Loading…" is read when it appears. */}
      <p className="visually-hidden" role="status">
        {state.kind === 'loading' ? t('FORM.LOADING') : ''}
      </p>
      {state.kind === 'found' ? (
        <Result answer={state.answer} code={typed.code} onAnother={() => setState({ kind: 'form' })} />
      ) : (
        <StatusForm
          initial={typed}
          problem={state.kind === 'form' || state.kind === 'loading' ? null : state.kind}
          busy={state.kind === 'loading'}
          onLookUp={lookUp}
          onEdit={() => setState({ kind: 'form' })}
        />
      )}
    </div>
  );
}
