import type { RefusalReason } from '@ros/domain';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate, useSearchParams } from 'react-router';
import { loadSsoSession, type SsoSession } from '../api/sso';
import { Button } from '../components/Button';
import { Spinner } from '../components/Spinner';
import { ssoRedirectUrl } from '../home/choices';
import { InlineMessage, useAlerts } from '../shell/alerts';
import { useLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
import { useHeaderTitle } from '../shell/title';
import { useT } from '../shell/translate';
import { AlreadySent } from './AlreadySent';
import { clearDraft, type FormStart, loadDraftStart } from './draft';
import { EarlyRefusal } from './EarlyRefusal';
import { LeaveGuardHost } from './LeaveDialog';
import {
  FocusedCard,
  fieldList,
  NIA_FIELDS,
  type NiaField,
  NiaIncomplete,
  NiaNotFound,
  SsoFailed,
} from './nia/NiaViews';
import { useNiaSignOut } from './nia/niaSignOut';
import { draftFitsSession, type NiaPlan, niaStart, niaValues, planNia, type RetryFrom } from './nia/niaStart';
import { SessionWatch } from './nia/SessionWatch';
import { manualStart, startFromPerson } from './prefillStart';
import { useReferenceLists } from './reference';
import type { SearchOutcome } from './search/phase';
import { SearchStep } from './search/SearchStep';
import { useSentEntry } from './sentEntry';
import { validateRequest } from './submit';
import './form.css';

// Step 2 (the whole request, its pick lists and the submit flow) loads when it is shown: the
// search step, where most visits start, does not carry it (issue 14).
const RequestForm = lazy(() => import('./RequestForm').then((m) => ({ default: m.RequestForm })));

type NiaSource = 'register' | 'identity';

type View =
  | { step: 'loading' }
  | { step: 'session-error' }
  /** A sent request's history entry, shown again after its success screen was left. */
  | { step: 'sent' }
  | { step: 'search'; retryFrom?: RetryFrom }
  | { step: 'not-found'; start: FormStart }
  | { step: 'form'; start: FormStart; found: boolean; nia?: NiaSource };

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
    const draft = loadDraftStart(duplicate);
    if (draft) return formView(draft);
    return eid ? formView(manualStart()) : { step: 'search' };
  };
  const entry = useSentEntry();
  const [view, setView] = useState<View>(() =>
    entry.sent ? { step: 'sent' } : nia ? { step: 'loading' } : plainView(),
  );
  const navigate = useNavigate();
  const [session, setSession] = useState<SsoSession | null>(null);
  const [incomplete, setIncomplete] = useState(false);
  // What an incomplete sign-in did not release (named by the intro and the card, issue 28).
  const missing: NiaField[] = session ? NIA_FIELDS.filter((f) => !niaValues(session)[f]) : [];
  const released = NIA_FIELDS.filter((f) => !missing.includes(f));
  const [attempt, setAttempt] = useState(0);
  const [formKey, setFormKey] = useState(0);
  const [sent, setSent] = useState(false);
  // After the sign-in ended the person chose to go on without it (nia/SessionWatch.tsx).
  const [paper, setPaper] = useState(false);
  const [sessionEnded, setSessionEnded] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Told early (issue 36): validate's answer for a person the search or the sign-in proved, asked
  // before the form shows; 'checking' until it answers (a failed call shows the form).
  const [early, setEarly] = useState<'checking' | RefusalReason | null>(null);
  const checkEarly = (start: FormStart) => {
    if (duplicate) return;
    setEarly('checking');
    void validateRequest(start.values, false, start.match).then((a) =>
      setEarly(!a.okDate && a.reason ? a.reason : null),
    );
  };
  // Moving to the next step: focus goes to its heading, so screen readers announce it; the
  // told-early notice takes it instead while shown (EarlyRefusal.tsx).
  const earlyShown = early !== null;
  useEffect(() => {
    if ((view.step === 'form' && !earlyShown) || view.step === 'not-found') headingRef.current?.focus();
  }, [view.step, earlyShown]);
  // The pick lists are step 2's: not fetched on the search step.
  const { lists, error, retry } = useReferenceLists(lang, view.step === 'form');

  // Leaving the form screen inside the app ends the draft (asked first when something was
  // typed): only a reload of the tab brings it back. Runs after the form's last save.
  useEffect(() => () => clearDraft(), []);

  // Back from a cancelled or failed NIA sign-in (the server adds sso=failed): a card on the
  // search step offers signing in again or going on without (issue 28).
  const { show } = alerts;
  const metadata = useMetadata();
  const [ssoFailedOpen, setSsoFailedOpen] = useState(ssoFailed);
  // "Continue without" closes the card: focus goes to the search's first box once it is the page's
  // (an effect of this page, so a page that is gone moves no focus, as a later frame callback did).
  const [focusFirstBox, setFocusFirstBox] = useState(false);
  useEffect(() => {
    if (!focusFirstBox) return;
    setFocusFirstBox(false);
    document.getElementById('first_name')?.focus();
  }, [focusFirstBox]);

  // Leaving the success screen (the exit button, a link, closing the tab) drops it and the
  // person's details at once, before the browser may keep the page for Back (issue 28); a page
  // brought back from that cache all the same shows "already sent".
  useEffect(() => {
    if (!sent) return;
    const forget = () => flushSync(() => setView({ step: 'sent' }));
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) forget();
    };
    window.addEventListener('pagehide', forget);
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('pagehide', forget);
      window.removeEventListener('pageshow', onShow);
    };
  }, [sent]);

  // After a NIA sign-in: the session decides where the screen starts.
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per mount and per "try again" (attempt)
  useEffect(() => {
    if (!nia || view.step === 'sent') return;
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
        const draft = loadDraftStart(duplicate);
        if (draft && draftFitsSession(draft, s)) {
          setView(formView(draft, draft.noPrefill ? 'identity' : 'register'));
          return;
        }
        // (The retry's message is the search step's own, above the birth-number box: issue 35.)
        if (plan.kind === 'not-found') {
          show({ type: 'warning', key: 'FORM.DUPLICATE_NOT_FOUND.DESCRIPTION', timeout: 0 });
        }
        setView(niaView(plan));
        if (plan.kind === 'form') checkEarly(plan.start);
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
      const start = startFromPerson(o.person, duplicate);
      setView(formView(start));
      checkEarly(start);
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

  // Leaving the form (or going home) while signed in signs out at NIA too (nia/niaSignOut.ts).
  useNiaSignOut(session !== null && !sent && !paper, lang);

  // The request goes through the sign-in (nothing to print) until the person chooses otherwise.
  const niaChannel = view.step === 'form' && Boolean(view.nia) && !incomplete && !paper;
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
        {view.step === 'sent' && (
          <AlreadySent
            headingRef={headingRef}
            onNew={() => {
              setSent(false);
              // A sign-in is used up by its request: the new one starts on the search step.
              if (eid) navigate({ search: lang === 'en' ? '?lang=en' : '' }, { replace: true });
              else entry.unmark();
              setView({ step: 'search' });
              setFormKey((k) => k + 1);
            }}
          />
        )}
        {view.step === 'session-error' && (
          <FocusedCard textId="nia-session-error-text" testId="nia-session-error">
            <p id="nia-session-error-text">{t('FORM.NIA.SESSION_ERROR')}</p>
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
          </FocusedCard>
        )}
        {view.step === 'search' && ssoFailedOpen && (
          <SsoFailed
            signInHref={metadata.use_eid !== 'NO' ? ssoRedirectUrl(lang, duplicate) : null}
            onContinue={() => {
              setSsoFailedOpen(false);
              setFocusFirstBox(true);
            }}
          />
        )}
        {view.step === 'search' && (
          <SearchStep duplicate={duplicate} onDone={onDone} retryFrom={view.retryFrom} />
        )}
        {view.step === 'not-found' && (
          <NiaNotFound
            headingRef={headingRef}
            incomplete={incomplete}
            missing={missing}
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
              <p>
                {view.nia && incomplete
                  ? released.length > 0
                    ? t('FORM.NIA.INTRO_INCOMPLETE', { fields: fieldList(released, t) })
                    : t('FORM.NIA.INTRO_INCOMPLETE_NONE')
                  : t(stepIntro)}
              </p>
              {view.nia &&
                (incomplete ? (
                  <NiaIncomplete missing={missing} />
                ) : (
                  <p data-testid="nia-channel">
                    {t(paper ? 'FORM.NIA.SESSION.PAPER_NOTE' : 'FORM.NIA.DIRECT')}
                  </p>
                ))}
            </section>
            {niaChannel && session?.expires_in !== undefined && !sent && (
              <SessionWatch
                time={{
                  expires_in: session.expires_in,
                  warn_before: session.warn_before ?? 120,
                  extendable: session.extendable ?? false,
                }}
                duplicate={duplicate}
                endedSignal={sessionEnded}
                onPaper={() => setPaper(true)}
              />
            )}
            {early === 'checking' ? (
              <Spinner label={t('FORM.LOADING')} />
            ) : early ? (
              <EarlyRefusal reason={early} onContinue={() => setEarly(null)} />
            ) : lists ? (
              <Suspense fallback={<Spinner label={t('FORM.LOADING')} />}>
                <RequestForm
                  key={formKey}
                  duplicate={duplicate}
                  start={view.start}
                  lists={lists}
                  onExit={onExit}
                  onSubmitted={() => {
                    // This history entry now stands for a sent request (sentEntry.ts).
                    entry.mark();
                    clearDraft();
                    setSent(true);
                  }}
                  nia={niaChannel}
                  onSessionExpired={() => setSessionEnded((n) => n + 1)}
                />
              </Suspense>
            ) : error ? null : (
              <Spinner label={t('FORM.LOADING')} />
            )}
            {/* Step 2's lists failed: said in a region that is in the page while they load (issue
                35); "Try again" puts focus back on the step's heading while they load again. */}
            {!lists && (
              <InlineMessage
                message={error && early === null ? { type: 'danger', key: 'FORM.LISTS_ERROR' } : null}
                action={
                  <Button
                    onClick={() => {
                      retry();
                      headingRef.current?.focus();
                    }}
                  >
                    {t('FORM.RETRY')}
                  </Button>
                }
                testId="lists-error"
              />
            )}
          </>
        )}
      </div>
    </LeaveGuardHost>
  );
}
