import { defaultFormValues } from '@ros/domain';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { loadSsoSession, type SsoSession } from '../api/sso';
import { Button } from '../components/Button';
import { Spinner } from '../components/Spinner';
import { useAlerts } from '../shell/alerts';
import { useLang } from '../shell/lang';
import { useHeaderTitle } from '../shell/title';
import { useT } from '../shell/translate';
import { clearDraft, loadDraft } from './draft';
import { LeaveGuardHost } from './LeaveDialog';
import { NiaIncomplete, NiaNotFound } from './nia/NiaViews';
import { draftFitsSession, type NiaPlan, niaStart, planNia, type RetryFrom } from './nia/niaStart';
import { manualStart, startFromPerson } from './prefillStart';
import type { FormStart } from './RequestForm';
import { useReferenceLists } from './reference';
import { type SearchOutcome, SearchStep } from './SearchStep';
import './form.css';

// Step 2 (the whole request, its pick lists and the submit flow) loads when it is shown: the
// search step, where most visits start, does not carry it (issue 14).
const RequestForm = lazy(() => import('./RequestForm').then((m) => ({ default: m.RequestForm })));

type NiaSource = 'register' | 'identity';

type View =
  | { step: 'loading' }
  | { step: 'session-error' }
  | { step: 'search'; retryFrom?: RetryFrom }
  | { step: 'not-found'; start: FormStart }
  | { step: 'form'; start: FormStart; found: boolean; nia?: NiaSource };

function draftStart(duplicate: boolean): FormStart | null {
  const d = loadDraft(duplicate);
  if (!d) return null;
  return {
    // A draft saved before dial_code was a form value kept the choice beside the values.
    values: { ...defaultFormValues(), ...(d.dialCode ? { dial_code: d.dialCode } : {}), ...d.values },
    readOnly: d.readOnly,
    noPrefill: d.noPrefill,
    dataMailboxDelivery: d.dataMailboxDelivery,
    czechCitizen: d.czechCitizen ?? false,
    birthNameTouched: d.birthNameTouched,
    modalShown: d.modalShown,
    ...(d.match ? { match: d.match } : {}),
  };
}

const formView = (start: FormStart, nia?: NiaSource): View => ({
  step: 'form',
  found: !start.noPrefill,
  start,
  ...(nia ? { nia } : {}),
});

/** Where a sign-in session starts the screen (see nia/niaStart.ts). */
function niaView(plan: NiaPlan): View {
  if (plan.kind === 'retry') return { step: 'search', retryFrom: plan.retryFrom };
  if (plan.kind === 'not-found') return { step: 'not-found', start: plan.start };
  return formView(plan.start, plan.fromRegister ? 'register' : 'identity');
}

/**
 * The request form screen (spec section 2). Step 1 finds the person (unless the eid query
 * parameter is present); a match prefills step 2, the full request. After a NIA sign-in
 * (`eid=nia`) the sign-in session prefills step 2 instead (spec section 4, "Sign-in session").
 * A draft of step 2 survives a reload of the tab.
 */
export default function FormPage({ duplicate }: { duplicate: boolean }) {
  const { t } = useT();
  const lang = useLang();
  const alerts = useAlerts();
  const [params] = useSearchParams();
  useHeaderTitle(duplicate ? 'TITLE.DUPLICATE' : 'TITLE.DEFAULT');
  const eid = params.has('eid');
  const nia = params.get('eid') === 'nia';
  const ssoFailed = !eid && params.get('sso') === 'failed';
  // The screen without a sign-in session: the draft, else step 2 empty (eid) or the search.
  const plainView = (): View => {
    const draft = draftStart(duplicate);
    if (draft) return formView(draft);
    return eid ? formView(manualStart()) : { step: 'search' };
  };
  const [view, setView] = useState<View>(() => (nia ? { step: 'loading' } : plainView()));
  const [session, setSession] = useState<SsoSession | null>(null);
  const [incomplete, setIncomplete] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [formKey, setFormKey] = useState(0);
  const [sent, setSent] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The pick lists are step 2's: not fetched on the search step.
  const { lists, error, retry } = useReferenceLists(lang, view.step === 'form');

  // Leaving the form screen inside the app ends the draft (asked first when something was
  // typed): only a reload of the tab brings it back. Runs after the form's last save.
  useEffect(() => () => clearDraft(), []);

  // Moving to the next step: focus goes to its heading, so screen readers announce it.
  useEffect(() => {
    if (view.step === 'form' || view.step === 'not-found') headingRef.current?.focus();
  }, [view.step]);

  // Back from a cancelled or failed NIA sign-in (the server adds sso=failed).
  const { show } = alerts;
  useEffect(() => {
    if (ssoFailed) show({ type: 'warning', key: 'ALERTS.SSO_FAILED', timeout: 0 });
  }, [ssoFailed, show]);

  // After a NIA sign-in: the session decides where the screen starts.
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per mount and per "try again" (attempt)
  useEffect(() => {
    if (!nia) return;
    let live = true;
    loadSsoSession()
      .then((s) => {
        if (!live) return;
        if (!s) {
          // Expired, never signed in, or used up by a submit: as eid=eid, with a word why.
          show({ type: 'warning', key: 'ALERTS.SSO_EXPIRED', timeout: 0 });
          setView(plainView());
          return;
        }
        const plan = planNia(s, duplicate);
        setSession(s);
        setIncomplete(plan.incomplete);
        const draft = draftStart(duplicate);
        if (draft && draftFitsSession(draft, s)) {
          setView(formView(draft, draft.noPrefill ? 'identity' : 'register'));
          return;
        }
        if (plan.kind === 'retry') {
          show({ type: 'warning', key: 'FORM.DUPLICATE_RETRY.DESCRIPTION', timeout: 0 });
        } else if (plan.kind === 'not-found') {
          show({ type: 'warning', key: 'FORM.DUPLICATE_NOT_FOUND.DESCRIPTION', timeout: 0 });
        }
        setView(niaView(plan));
      })
      .catch(() => {
        if (live) setView({ step: 'session-error' });
      });
    return () => {
      live = false;
    };
  }, [nia, attempt]);

  const onDone = (o: SearchOutcome) => {
    if (session) {
      // The birth-number retry after a sign-in: the register's person (or none) under the identity.
      const start = niaStart(session, duplicate, o.kind === 'found' ? o.person : null);
      setView(formView(start, o.kind === 'found' ? 'register' : 'identity'));
    } else if (o.kind === 'manual') {
      setView(formView(manualStart(o.typed)));
    } else {
      setView(formView(startFromPerson(o.person, duplicate)));
    }
    setFormKey((k) => k + 1);
    window.scrollTo({ top: 0 });
  };

  const onExit = () => {
    clearDraft();
    setView(
      session ? niaView(planNia(session, duplicate)) : eid ? formView(manualStart()) : { step: 'search' },
    );
    setFormKey((k) => k + 1);
    window.scrollTo({ top: 0 });
  };

  const stepHeading =
    view.step === 'form'
      ? view.nia
        ? 'FORM.NIA.HEADING'
        : view.found
          ? 'FORM.PREFILL.HEADING'
          : 'FORM.MANUAL.HEADING'
      : '';
  const stepIntro =
    view.step === 'form'
      ? view.nia === 'register'
        ? 'FORM.NIA.INTRO_REGISTER'
        : view.nia === 'identity'
          ? 'FORM.NIA.INTRO_IDENTITY'
          : view.found
            ? 'FORM.PREFILL.INTRO'
            : duplicate
              ? 'FORM.MANUAL.NOTE_DUPLICATE'
              : 'FORM.MANUAL.NOTE'
      : '';

  // The host shows the form's "leave?" question on in-app navigation away.
  return (
    <LeaveGuardHost>
      <div className="request-form">
        {/* The blue band above already shows this title (spec: header title): the H1 is for
            screen readers and the outline only, so the first field is not 150 px further down. */}
        <h1 className="visually-hidden">{t(duplicate ? 'FORM.HEADING_DUPLICATE' : 'FORM.HEADING')}</h1>
        {view.step === 'loading' && <Spinner label={t('FORM.LOADING')} />}
        {view.step === 'session-error' && (
          <div className="card nia-card" role="alert" data-testid="nia-session-error">
            <p>{t('FORM.NIA.SESSION_ERROR')}</p>
            <div className="form-actions">
              <Button
                onClick={() => {
                  setView({ step: 'loading' });
                  setAttempt((n) => n + 1);
                }}
              >
                {t('FORM.RETRY')}
              </Button>
              <Button variant="link" onClick={() => setView(plainView())}>
                {t('FORM.NIA.CONTINUE_WITHOUT')}
              </Button>
            </div>
          </div>
        )}
        {view.step === 'search' && (
          <SearchStep duplicate={duplicate} onDone={onDone} retryFrom={view.retryFrom} />
        )}
        {view.step === 'not-found' && (
          <NiaNotFound
            headingRef={headingRef}
            incomplete={incomplete}
            onFill={() => {
              setView(formView(view.start, 'identity'));
              setFormKey((k) => k + 1);
            }}
          />
        )}
        {view.step === 'form' && (
          <>
            <section className="card" aria-labelledby="step2-title" hidden={sent} data-testid="step2-intro">
              <h2 id="step2-title" ref={headingRef} tabIndex={-1}>
                {t(stepHeading)}
              </h2>
              <p>{t(stepIntro)}</p>
              {view.nia && (incomplete ? <NiaIncomplete /> : <p>{t('FORM.NIA.DIRECT')}</p>)}
            </section>
            {lists ? (
              <Suspense fallback={<Spinner label={t('FORM.LOADING')} />}>
                <RequestForm
                  key={formKey}
                  duplicate={duplicate}
                  start={view.start}
                  lists={lists}
                  onExit={onExit}
                  onSubmitted={() => setSent(true)}
                  nia={Boolean(view.nia) && !incomplete}
                />
              </Suspense>
            ) : error ? (
              <div className="card" role="alert">
                <p>{t('FORM.LISTS_ERROR')}</p>
                <Button onClick={retry}>{t('FORM.RETRY')}</Button>
              </div>
            ) : (
              <Spinner label={t('FORM.LOADING')} />
            )}
          </>
        )}
      </div>
    </LeaveGuardHost>
  );
}
