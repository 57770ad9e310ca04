import { describe, expect, it } from 'vitest';
import type { SsoSession } from '../api/sso';
import { NIA_PERSON } from '../test/nia';
import { planNia } from './nia/niaStart';
import { manualStart } from './prefillStart';
import { goesThroughNia, initialScreen, type ScreenAction, type ScreenState, screenReducer } from './screen';

const session = (nia: Partial<SsoSession['nia']> = {}, szr = NIA_PERSON): SsoSession => ({
  nia: { complete: true, first_name: 'Štěpán', last_name: 'Dvořák', birth_date: '1985-03-15', ...nia },
  szr,
  record: szr?.record ?? null,
  aifo: 'AIFO-1',
  databox: null,
});

const run = (s: ScreenState, ...actions: ScreenAction[]) => actions.reduce(screenReducer, s);
const loading = () => initialScreen({ step: 'loading' }, false);

describe('the request form screen (FormPage.tsx) as steps', () => {
  it('a session with the register goes to step 2 through the sign-in; paper or an incomplete one does not', () => {
    const s = session();
    const at = run(loading(), { type: 'session', session: s, plan: planNia(s, false), draft: null });
    expect(at.view).toMatchObject({ step: 'form', nia: 'register', found: true });
    expect(at.session).toBe(s);
    expect(goesThroughNia(at)).toBe(true);
    expect(goesThroughNia(run(at, { type: 'paper' }))).toBe(false);
    const partial = session({ complete: false, birth_date: '' });
    const incomplete = run(loading(), {
      type: 'session',
      session: partial,
      plan: planNia(partial, false),
      draft: null,
    });
    expect(incomplete.incomplete).toBe(true);
    expect(goesThroughNia(incomplete)).toBe(false);
  });

  it("a saved draft that fits the session is the start, as the identity's when it had no prefill", () => {
    const s = session();
    const draft = manualStart();
    const at = run(loading(), { type: 'session', session: s, plan: planNia(s, false), draft });
    expect(at.view).toEqual({ step: 'form', start: draft, found: false, nia: 'identity' });
  });

  it('duplicate mode without a certificate: the search step asks the birth number (the retry)', () => {
    const { record: _none, ...withoutCertificate } = NIA_PERSON;
    const s = session({}, withoutCertificate);
    const at = run(loading(), { type: 'session', session: s, plan: planNia(s, true), draft: null });
    expect(at.view.step).toBe('search');
    expect(at.view.step === 'search' && at.view.retryFrom?.last_name).toBe('Dvořák');
  });

  it('each new start remounts step 2; try again loads the session again', () => {
    const at = run(
      initialScreen({ step: 'search' }, false),
      { type: 'start', view: { step: 'form', start: manualStart(), found: false } },
      { type: 'start', view: { step: 'search' } },
    );
    expect(at.formKey).toBe(2);
    const again = run(loading(), { type: 'session-error' }, { type: 'retry-session' });
    expect(again).toMatchObject({ view: { step: 'loading' }, attempt: 1 });
  });

  it('sent, left, then a new request: the success screen forgotten, the search step with a new form', () => {
    const at = run(
      initialScreen({ step: 'form', start: manualStart(), found: false }, false),
      { type: 'submitted' },
      { type: 'forget' },
    );
    expect(at).toMatchObject({ sent: true, view: { step: 'sent' } });
    expect(run(at, { type: 'new-request' })).toMatchObject({
      sent: false,
      view: { step: 'search' },
      formKey: 1,
    });
  });

  it('told early: checking, then the reason, then on past it; the failed sign-in card hands focus once', () => {
    const reason = { rule: 'repeat-request', filedOn: '2026-11-30', until: '2027-02-28' } as const;
    const told = run(loading(), { type: 'early-checking' }, { type: 'early-answer', reason });
    expect(told.early).toEqual(reason);
    expect(run(told, { type: 'early-answer', reason: null }).early).toBeNull();
    const card = initialScreen({ step: 'search' }, true);
    expect(card.ssoFailedOpen).toBe(true);
    const closed = run(card, { type: 'sso-failed-continue' });
    expect(closed).toMatchObject({ ssoFailedOpen: false, focusFirstBox: true });
    expect(run(closed, { type: 'first-box-focused' }).focusFirstBox).toBe(false);
  });
});
