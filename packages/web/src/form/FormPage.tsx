import { lazy, Suspense, useEffect, useReducer, useRef } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate, useSearchParams } from 'react-router';
import { loadSsoSession } from '../api/sso';
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
import { draftFitsSession, niaStart, niaValues, planNia } from './nia/niaStart';
import { SessionWatch } from './nia/SessionWatch';
import { manualStart, startFromPerson } from './prefillStart';
import { useReferenceLists } from './reference';
import { formView, goesThroughNia, initialScreen, niaView, screenReducer, type View } from './screen';
import type { SearchOutcome } from './search/phase';
import { SearchStep } from './search/SearchStep';
import { useSentEntry } from './sentEntry';
import { validateRequest } from './submit';
import './form.css';

// Step 2 (the whole request, its pick lists and the submit flow) loads when it is shown: the
// search step, where most visits start, does not carry it (issue 14).
const RequestForm = lazy(() => import('./RequestForm').then((m) => ({ default: m.RequestForm })));

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
  // The screen's state and its steps (screen.ts).
  const [screen, dispatch] = useReducer(screenReducer, null, () =>
    initialScreen(entry.sent ? { step: 'sent' } : nia ? { step: 'loading' } : plainView(), ssoFailed),
  );
  const { view, session, incomplete, attempt, formKey, sent, paper, sessionEnded, early } = screen;
  const navigate = useNavigate();
  // What an incomplete sign-in did not release (named by the intro and the card, issue 28).
  const missing: NiaField[] = session ? NIA_FIELDS.filter((f) => !niaValues(session)[f]) : [];
  const released = NIA_FIELDS.filter((f) => !missing.includes(f));
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Told early (issue 36): asked before the form shows (a failed call shows the form).
  const checkEarly = (start: FormStart) => {
    if (duplicate) return;
    dispatch({ type: 'early-checking' });
    void validateRequest(start.values, false, start.match).then((a) =>
      dispatch({ type: 'early-answer', reason: !a.okDate && a.reason ? a.reason : null }),
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
  // "Continue without" closes the card: focus goes to the search's first box once it is the page's
  // (an effect of this page, so a page that is gone moves no focus, as a later frame callback did).
  const { ssoFailedOpen, focusFirstBox } = screen;
  useEffect(() => {
    if (!focusFirstBox) return;
    dispatch({ type: 'first-box-focused' });
    document.getElementById('first_name')?.focus();
  }, [focusFirstBox]);

  // Leaving the success screen (the exit button, a link, closing the tab) drops it and the
  // person's details at once, before the browser may keep the page for Back (issue 28); a page
  // brought back from that cache all the same shows "already sent".
  useEffect(() => {
    if (!sent) return;
    const forget = () => flushSync(() => dispatch({ type: 'forget' }));
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
          dispatch({ type: 'plain', view: plainView() });
          return;
        }
        const plan = planNia(s, duplicate);
        const saved = loadDraftStart(duplicate);
        const draft = saved && draftFitsSession(saved, s) ? saved : null;
        dispatch({ type: 'session', session: s, plan, draft });
        if (draft) return;
        // (The retry's message is the search step's own, above the birth-number box: issue 35.)
        if (plan.kind === 'not-found') {
          show({ type: 'warning', key: 'FORM.DUPLICATE_NOT_FOUND.DESCRIPTION', timeout: 0 });
        }
        if (plan.kind === 'form') checkEarly(plan.start);
      })
      .catch(() => {
        if (live) dispatch({ type: 'session-error' });
      });
    return () => {
      live = false;
    };
  }, [nia, attempt]);

  const onDone = (o: SearchOutcome) => {
    if (session) {
      // The birth-number retry after a sign-in: the register's person (or none) under the identity.
      const start = niaStart(session, duplicate, o.kind === 'found' ? o.person : null);
      dispatch({ type: 'start', view: formView(start, o.kind === 'found' ? 'register' : 'identity') });
    } else if (o.kind === 'manual') {
      dispatch({ type: 'start', view: formView(manualStart(o.typed)) });
    } else {
      const start = startFromPerson(o.person, duplicate);
      dispatch({ type: 'start', view: formView(start) });
      checkEarly(start);
    }
    window.scrollTo({ top: 0 });
  };

  const onExit = () => {
    clearDraft();
    const next: View = session
      ? niaView(planNia(session, duplicate))
      : eid
        ? formView(manualStart())
        : { step: 'search' };
    dispatch({ type: 'start', view: next });
    window.scrollTo({ top: 0 });
  };

  // Leaving the form (or going home) while signed in signs out at NIA too (nia/niaSignOut.ts).
  useNiaSignOut(session !== null && !sent && !paper, lang);

  // The request goes through the sign-in (nothing to print) until the person chooses otherwise.
  const niaChannel = goesThroughNia(screen);
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
              // A sign-in is used up by its request: the new one starts on the search step.
              if (eid) navigate({ search: lang === 'en' ? '?lang=en' : '' }, { replace: true });
              else entry.unmark();
              dispatch({ type: 'new-request' });
            }}
          />
        )}
        {view.step === 'session-error' && (
          <FocusedCard textId="nia-session-error-text" testId="nia-session-error">
            <p id="nia-session-error-text">{t('FORM.NIA.SESSION_ERROR')}</p>
            <div className="form-actions">
              <Button onClick={() => dispatch({ type: 'retry-session' })}>{t('FORM.RETRY')}</Button>
              <Button variant="link" onClick={() => dispatch({ type: 'plain', view: plainView() })}>
                {t('FORM.NIA.CONTINUE_WITHOUT')}
              </Button>
            </div>
          </FocusedCard>
        )}
        {view.step === 'search' && ssoFailedOpen && (
          <SsoFailed
            signInHref={metadata.use_eid !== 'NO' ? ssoRedirectUrl(lang, duplicate) : null}
            onContinue={() => dispatch({ type: 'sso-failed-continue' })}
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
            onFill={() => dispatch({ type: 'start', view: formView(view.start, 'identity') })}
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
                onPaper={() => dispatch({ type: 'paper' })}
              />
            )}
            {early === 'checking' ? (
              <Spinner label={t('FORM.LOADING')} />
            ) : early ? (
              <EarlyRefusal
                reason={early}
                onContinue={() => dispatch({ type: 'early-answer', reason: null })}
              />
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
                    dispatch({ type: 'submitted' });
                  }}
                  nia={niaChannel}
                  onSessionExpired={() => dispatch({ type: 'session-ended' })}
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
