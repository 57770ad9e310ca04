import type { RefusalReason } from '@ros/domain';
import type { SsoSession } from '../api/sso';
import type { FormStart } from './draft';
import type { NiaPlan, RetryFrom } from './nia/niaStart';

/**
 * The request form screen's state (FormPage.tsx), one value changed by named steps instead of
 * a view and nine flags set here and there: what the screen shows (`view`) and what it knows
 * about the sign-in, the success screen and the told-early check. Pure: the page reads the
 * draft, the session and the validate call, and hands their results in its actions.
 */

/** How a NIA sign-in prefilled step 2: from the register's person, or from the identity alone. */
export type NiaSource = 'register' | 'identity';

export type View =
  | { step: 'loading' }
  | { step: 'session-error' }
  /** A sent request's history entry, shown again after its success screen was left. */
  | { step: 'sent' }
  | { step: 'search'; retryFrom?: RetryFrom }
  | { step: 'not-found'; start: FormStart }
  | { step: 'form'; start: FormStart; found: boolean; nia?: NiaSource };

export const formView = (start: FormStart, nia?: NiaSource): View => ({
  step: 'form',
  found: !start.noPrefill,
  start,
  ...(nia ? { nia } : {}),
});

/** Where a sign-in session starts the screen (see nia/niaStart.ts). */
export function niaView(plan: NiaPlan): View {
  if (plan.kind === 'retry') return { step: 'search', retryFrom: plan.retryFrom };
  if (plan.kind === 'not-found') return { step: 'not-found', start: plan.start };
  return formView(plan.start, plan.fromRegister ? 'register' : 'identity');
}

export interface ScreenState {
  view: View;
  /** The NIA sign-in session, once loaded (`eid=nia`). */
  session: SsoSession | null;
  /** The sign-in did not release the name or the birth date (issue 28). */
  incomplete: boolean;
  /** Counts "try again" of the session load: the page loads it again when this changes. */
  attempt: number;
  /** A new key remounts step 2 with its new start (a search, an exit, a new request). */
  formKey: number;
  /** The request was sent: step 2 shows its success screen. */
  sent: boolean;
  /** After the sign-in ended the person chose to go on without it, on paper (nia/SessionWatch.tsx). */
  paper: boolean;
  /** Counts the sign-in session ending under step 2 (a submit refused for it): SessionWatch says so. */
  sessionEnded: number;
  /**
   * Told early (issue 36): validate's answer for a person the search or the sign-in proved,
   * asked before the form shows; 'checking' until it answers, null for none (or a failed call).
   */
  early: 'checking' | RefusalReason | null;
  /** The card of a cancelled or failed sign-in (`sso=failed`) on the search step. */
  ssoFailedOpen: boolean;
  /** "Continue without" closed that card: focus goes to the search's first box once it is the page's. */
  focusFirstBox: boolean;
}

export type ScreenAction =
  /** The session loaded: its plan, or a saved draft of step 2 that fits it. */
  | { type: 'session'; session: SsoSession; plan: NiaPlan; draft: FormStart | null }
  /** No session (expired, used up) or "continue without" it: the screen without one. */
  | { type: 'plain'; view: View }
  | { type: 'session-error' }
  | { type: 'retry-session' }
  /** The search step ended, the form was left, or a not-found person fills in: step 2 anew. */
  | { type: 'start'; view: View }
  | { type: 'submitted' }
  /** The success screen left (pagehide, Back from the cache): only "already sent" stays. */
  | { type: 'forget' }
  /** "Send another request" after "already sent". */
  | { type: 'new-request' }
  | { type: 'early-checking' }
  | { type: 'early-answer'; reason: RefusalReason | null }
  | { type: 'paper' }
  | { type: 'session-ended' }
  | { type: 'sso-failed-continue' }
  | { type: 'first-box-focused' };

export function initialScreen(view: View, ssoFailed: boolean): ScreenState {
  return {
    view,
    session: null,
    incomplete: false,
    attempt: 0,
    formKey: 0,
    sent: false,
    paper: false,
    sessionEnded: 0,
    early: null,
    ssoFailedOpen: ssoFailed,
    focusFirstBox: false,
  };
}

export function screenReducer(s: ScreenState, a: ScreenAction): ScreenState {
  switch (a.type) {
    case 'session': {
      const view = a.draft ? formView(a.draft, a.draft.noPrefill ? 'identity' : 'register') : niaView(a.plan);
      return { ...s, session: a.session, incomplete: a.plan.incomplete, view };
    }
    case 'plain':
      return { ...s, view: a.view };
    case 'session-error':
      return { ...s, view: { step: 'session-error' } };
    case 'retry-session':
      return { ...s, view: { step: 'loading' }, attempt: s.attempt + 1 };
    case 'start':
      return { ...s, view: a.view, formKey: s.formKey + 1 };
    case 'submitted':
      return { ...s, sent: true };
    case 'forget':
      return { ...s, view: { step: 'sent' } };
    case 'new-request':
      return { ...s, sent: false, view: { step: 'search' }, formKey: s.formKey + 1 };
    case 'early-checking':
      return { ...s, early: 'checking' };
    case 'early-answer':
      return { ...s, early: a.reason };
    case 'paper':
      return { ...s, paper: true };
    case 'session-ended':
      return { ...s, sessionEnded: s.sessionEnded + 1 };
    case 'sso-failed-continue':
      return { ...s, ssoFailedOpen: false, focusFirstBox: true };
    case 'first-box-focused':
      return { ...s, focusFirstBox: false };
  }
}

/** The request goes through the sign-in (nothing to print) until the person chooses otherwise. */
export const goesThroughNia = (s: ScreenState): boolean =>
  s.view.step === 'form' && Boolean(s.view.nia) && !s.incomplete && !s.paper;
