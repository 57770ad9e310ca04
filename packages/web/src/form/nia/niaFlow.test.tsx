import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SsoSession } from '../../api/sso';
import { NIA_PERSON as PERSON } from '../../test/nia';
import { renderApp } from '../../test/render';
import { findFinish, TEST_LIST_ANSWERS, tickRequired } from '../../test/requestForm';
import { DRAFT_KEY } from '../draft';
import { clearReferenceCache } from '../reference';

// The bot check loads the ALTCHA web component, which jsdom cannot run.
vi.mock('../botcheck', () => ({
  getBotToken: vi.fn(async () => 'bot-token'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
  BotCheckError: class extends Error {},
}));

const session = (over: Partial<SsoSession> = {}, nia: Partial<SsoSession['nia']> = {}): SsoSession => ({
  nia: { complete: true, first_name: 'Štěpán', last_name: 'Dvořák', birth_date: '1985-03-15', ...nia },
  szr: PERSON,
  record: PERSON.record ?? null,
  aifo: 'AIFO-1001',
  databox: null,
  ...over,
});

type Answer = { status: number; body: unknown };
const LISTS = TEST_LIST_ANSWERS;
const NO_SESSION: Answer = { status: 401, body: { error: { code: 'NO_SESSION', message: 'No session' } } };

function open(path: string, sso: Answer | (() => Answer), api: Record<string, Answer | (() => Answer)> = {}) {
  const user = userEvent.setup();
  const view = renderApp({ path, api: { ...LISTS, '/api/ros/sso-session': sso, ...api } });
  return { user, ...view };
}

const box = (id: string) => document.getElementById(id) as HTMLInputElement;
const alertKeys = () =>
  Array.from(document.querySelectorAll('[data-alert-key]')).map((a) => a.getAttribute('data-alert-key'));
/** The form screen is a lazy chunk: the first render may take a while on a busy machine. */
const LONG = { timeout: 15000 };

describe('the form screen after a NIA sign-in (eid=nia)', { timeout: 30000 }, () => {
  const assign = vi.fn();
  beforeEach(() => {
    window.sessionStorage.clear();
    clearReferenceCache();
    assign.mockReset();
    vi.stubGlobal('location', { ...window.location, assign, href: 'http://localhost/form' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('with the register: a spinner, then step 2 prefilled, the NIA identity read-only, no search', async () => {
    let release: (a: Answer) => void = () => {};
    const pending = new Promise<Answer>((r) => {
      release = r;
    });
    const { fetchMock } = open('/form?eid=nia&lang=en', () => ({ status: 200, body: session() }));
    // Hold the session answer back to see the loading state.
    const original = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/ros/sso-session') {
        const a = await pending;
        return new Response(JSON.stringify(a.body), { status: a.status });
      }
      return original?.(input, init) as Promise<Response>;
    });
    // The form screen is there (its heading), waiting for the session under a spinner.
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Request for a background-check certificate' },
      LONG,
    );
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(screen.queryByTestId('step2-intro')).toBeNull();
    release({ status: 200, body: session() });

    const heading = await screen.findByRole('heading', {
      name: 'You are signed in with your citizen identity',
    });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText(/details from your identity and from the register/)).toBeInTheDocument();
    expect(screen.getByText(/there is nothing to print or sign/)).toBeInTheDocument();
    await findFinish();
    expect(screen.queryByTestId('search-submit')).toBeNull();
    expect(box('first_name')).toHaveValue('Štěpán');
    expect(box('first_name')).toHaveAttribute('readonly');
    expect(box('last_name')).toHaveAttribute('readonly');
    expect(box('birth_date')).toHaveAttribute('readonly');
    expect(box('birth_date')).toHaveValue('15.03.1985');
    expect(box('home_city')).toHaveValue('Brno');
    expect(box('home_city')).toHaveAttribute('readonly');
    // Not from the register: the user can change it.
    expect(box('telephone')).not.toHaveAttribute('readonly');
    // No data mailbox known and a prefill: the field is hidden and DATOVKOU is not offered.
    expect(box('data_mailbox')).toBeNull();
    expect(within(box('delivery_type')).queryByRole('option', { name: 'To a data mailbox' })).toBeNull();
    expect(screen.queryByTestId('sso-incomplete')).toBeNull();
    expect(alertKeys()).toEqual([]);
  });

  it('a known data mailbox is shown read-only and DATOVKOU is offered', async () => {
    open('/form?eid=nia&lang=en', { status: 200, body: session({ databox: 'h7k2m9p' }) });
    await findFinish(LONG.timeout);
    expect(box('data_mailbox')).toHaveValue('h7k2m9p');
    expect(box('data_mailbox')).toHaveAttribute('readonly');
    expect(
      within(box('delivery_type')).getByRole('option', { name: 'To a data mailbox' }),
    ).toBeInTheDocument();
  });

  it('without the register (cs): only the identity, the rest to fill in, data mailbox editable', async () => {
    const { user } = open('/form?eid=nia', {
      status: 200,
      body: session({ szr: null, record: null, aifo: null }),
    });
    expect(
      await screen.findByRole('heading', { name: 'Jste přihlášeni přes identitu občana' }, LONG),
    ).toBeInTheDocument();
    expect(screen.getByText(/V registru vás zatím nemáme/)).toBeInTheDocument();
    await findFinish();
    expect(box('first_name')).toHaveAttribute('readonly');
    expect(box('last_name')).toHaveValue('Dvořák');
    expect(box('birth_date')).toHaveAttribute('readonly');
    expect(box('birth_name')).toHaveValue('Dvořák');
    expect(box('birth_name')).not.toHaveAttribute('readonly');
    expect(box('home_city')).toHaveValue('');
    expect(box('home_city')).not.toHaveAttribute('readonly');
    // No prefill: the data mailbox is shown (and may be typed); DATOVKOU comes with a valid one.
    expect(box('data_mailbox')).not.toHaveAttribute('readonly');
    expect(within(box('delivery_type')).queryByRole('option', { name: 'Do datové schránky' })).toBeNull();
    await user.type(box('data_mailbox'), 'abc1234');
    expect(
      within(box('delivery_type')).getByRole('option', { name: 'Do datové schránky' }),
    ).toBeInTheDocument();
  });

  it('incomplete identity: the error card, and what NIA did not release can be filled in', async () => {
    const { user } = open('/form?eid=nia&lang=en', {
      status: 200,
      body: session({ szr: null, record: null }, { complete: false, birth_date: null }),
    });
    const card = await screen.findByTestId('sso-incomplete', {}, LONG);
    expect(card).toHaveTextContent('The sign-in did not provide all details');
    // One explanation (issue 28): the intro names what came from the sign-in, the card what did not.
    expect(card).toHaveTextContent('Your sign-in did not give us your date of birth.');
    expect(card).toHaveTextContent('Without them, however, the sign-in cannot vouch for the request');
    const intro = screen.getByTestId('step2-intro');
    expect(intro).toHaveTextContent('From your sign-in we took your first name and last name');
    expect(intro).not.toHaveTextContent(/date of birth come from your identity/);
    expect(card).toHaveTextContent('download it as a PDF');
    // Not the complete identity's promise of a direct submission.
    expect(screen.queryByText(/there is nothing to print or sign/)).toBeNull();
    await findFinish();
    expect(box('first_name')).toHaveAttribute('readonly');
    expect(box('birth_date')).not.toHaveAttribute('readonly');
    await user.type(box('birth_date'), '15.03.1985');
    expect(box('birth_date')).toHaveValue('15.03.1985');
  });

  it('no session (401): the form without prefill, as eid=eid, and an alert that the sign-in expired', async () => {
    open('/form?eid=nia&lang=en', NO_SESSION);
    expect(
      await screen.findByRole('heading', { name: 'Filling in the form by hand' }, LONG),
    ).toBeInTheDocument();
    await findFinish();
    expect(screen.queryByTestId('search-submit')).toBeNull();
    expect(box('first_name')).toHaveValue('');
    expect(box('first_name')).not.toHaveAttribute('readonly');
    await waitFor(() => expect(alertKeys()).toEqual(['ALERTS.SSO_EXPIRED']));
    expect(screen.getByText(/sign-in has expired or has already been used/)).toBeInTheDocument();
  });

  for (const [path, text] of [
    ['/form?sso=failed&lang=en', /Signing in with your citizen identity did not succeed/],
    ['/duplikat/form?sso=failed', /Přihlášení přes identitu občana se nepodařilo/],
  ] as const) {
    it(`${path}: the search step with a card: sign in again, or continue without`, async () => {
      const { fetchMock, user } = open(path, NO_SESSION);
      expect(await screen.findByTestId('search-submit', {}, LONG)).toBeInTheDocument();
      const card = screen.getByTestId('sso-failed');
      expect(card).toHaveTextContent(text);
      // Focus on the card, named by its words: read once, on focus (issue 35).
      expect(card).toHaveAccessibleName(text);
      await waitFor(() => expect(card).toHaveFocus());
      expect(card.closest('[role="alert"], [role="status"], [aria-live]')).toBeNull();
      expect(within(card).getByTestId('sso-sign-in-again')).toHaveAttribute(
        'href',
        expect.stringMatching(/^\/api\/ros\/sso-redirect\?from=(form-en|duplicate)$/),
      );
      await user.click(within(card).getByTestId('sso-continue-without'));
      expect(screen.queryByTestId('sso-failed')).toBeNull();
      // Focus goes on to the search's first box (not left on <body> where the card was).
      await waitFor(() => expect(document.getElementById('first_name')).toHaveFocus());
      // No session is asked for without eid=nia.
      expect(fetchMock.mock.calls.some(([u]) => String(u).includes('sso-session'))).toBe(false);
    });
  }

  it('a failed session call shows an error with "Try again", which loads it again', async () => {
    let fail = true;
    const { user } = open('/form?eid=nia&lang=en', () =>
      fail
        ? { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'x' } } }
        : { status: 200, body: session() },
    );
    // Focus on the card, named by its words: read once, on focus, not also a live region (issue 35).
    const error = await screen.findByTestId('nia-session-error', {}, LONG);
    expect(error).toHaveAccessibleName(/could not load the details of your sign-in/);
    await waitFor(() => expect(error).toHaveFocus());
    expect(error.closest('[role="alert"], [role="status"], [aria-live]')).toBeNull();
    fail = false;
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('heading', { name: 'You are signed in with your citizen identity' }),
    ).toBeInTheDocument();
  });

  it('a reload keeps the draft made from this sign-in; a draft from before it gives way', async () => {
    const { unmount } = open('/form?eid=nia&lang=en', { status: 200, body: session() });
    await findFinish(LONG.timeout);
    const user = userEvent.setup();
    await user.type(box('telephone'), '777123456');
    await waitFor(() => expect(window.sessionStorage.getItem(DRAFT_KEY)).toContain('777123456'));
    const saved = window.sessionStorage.getItem(DRAFT_KEY) as string;
    unmount();
    // A reload: the tab's draft is still there.
    window.sessionStorage.setItem(DRAFT_KEY, saved);
    const second = open('/form?eid=nia&lang=en', { status: 200, body: session() });
    await findFinish(LONG.timeout);
    expect(box('telephone')).toHaveValue('777123456');
    second.unmount();
    // A draft typed before signing in (no identity in it) is not the signed-in form.
    const old = JSON.parse(saved);
    window.sessionStorage.setItem(
      DRAFT_KEY,
      JSON.stringify({ ...old, values: { ...old.values, first_name: 'Jan' }, readOnly: [] }),
    );
    open('/form?eid=nia&lang=en', { status: 200, body: session() });
    await findFinish(LONG.timeout);
    expect(box('first_name')).toHaveValue('Štěpán');
    expect(box('telephone')).toHaveValue('');
  });

  it('submit after a sign-in: the e-mail confirmation to the entered address, no PDF download', async () => {
    const { user, fetchMock } = open(
      '/form?eid=nia&lang=en',
      { status: 200, body: session() },
      {
        '/api/ros/validate': { status: 200, body: { okDate: true, okDuplications: true } },
        '/api/ros': {
          status: 201,
          body: { text: 'ok', id: 'C'.repeat(24), reference: 'ROS-2026-000044', email: true },
        },
      },
    );
    await user.click(await findFinish(LONG.timeout));
    await screen.findByTestId('confirm-dialog');
    await tickRequired(user);
    await user.click(screen.getByTestId('confirm-submit'));
    const success = await screen.findByTestId('submit-success');
    expect(success).toHaveAttribute('data-variant', 'email');
    expect(within(success).getByTestId('submit-reference')).toHaveTextContent('ROS-2026-000044');
    expect(within(success).getByTestId('submit-email-note')).toHaveTextContent(
      'We have sent a confirmation with your request as a PDF by e-mail to stepan@example.cz.',
    );
    expect(success).toHaveTextContent('You do not need to print, sign or send it.');
    // Nothing downloads by itself, but a copy is offered to keep (issue 28).
    expect(screen.getByTestId('pdf-link')).toHaveAttribute('href', '/api/ros/pdf/CCCCCCCCCCCCCCCCCCCCCCCC');
    expect(screen.getByTestId('pdf-link')).toHaveTextContent('Download a copy of the request (PDF)');
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Your request has been sent' })).toHaveFocus();
    // Leaving signs out at NIA too, on the way home (docs/nia.md "Signing out at NIA").
    await user.click(screen.getByTestId('submit-exit'));
    expect(assign).toHaveBeenLastCalledWith('/api/ros/sso-logout?lang=en');
    // The request carried the identity and the AIFO.
    const [, init] = fetchMock.mock.calls.find(([u]) => String(u) === '/api/ros') ?? [];
    expect(JSON.parse(String(init?.body))).toMatchObject({
      first_name: 'Štěpán',
      last_name: 'Dvořák',
      birth_date: '1985-03-15',
      aifo: 'AIFO-1001',
    });
  });

  it('duplicate mode, register person without a certificate: the birth-number retry, names locked', async () => {
    const noRecord = { ...PERSON, record: undefined, match: 's'.repeat(43) };
    const { user, fetchMock } = open(
      '/duplicate/form?eid=nia&lang=en',
      { status: 200, body: session({ szr: noRecord, record: null }) },
      { '/api/ros/search-birth-number': { status: 200, body: PERSON } },
    );
    const bn = await screen.findByRole('textbox', { name: /Birth number/ }, LONG);
    await waitFor(() => expect(alertKeys()).toEqual(['FORM.DUPLICATE_RETRY.DESCRIPTION']));
    // Above the birth-number box, which takes focus, not at the top of the page (issue 35).
    expect(document.querySelector('.alert-list [data-alert-key]')).toBeNull();
    expect(screen.getByTestId('retry-notice')).toHaveTextContent(/no certificate/);
    await waitFor(() => expect(bn).toHaveFocus());
    expect(box('first_name')).toHaveValue('Štěpán');
    expect(box('first_name')).toHaveAttribute('readonly');
    expect(box('type')).toBeDisabled();
    await user.type(bn, '850315/1008');
    await user.click(screen.getByTestId('search-submit'));
    expect(
      await screen.findByRole('heading', { name: 'You are signed in with your citizen identity' }),
    ).toBeInTheDocument();
    // The retry proves the person by the session's register match (docs/register.md).
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/search-birth-number')) ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ birth_number: '850315/1008', match: 's'.repeat(43) });
    await findFinish();
    expect(box('first_name')).toHaveAttribute('readonly');
    expect(box('home_city')).toHaveValue('Brno');
  });

  it('duplicate mode, person unknown to the register: no duplicate; a new request keeps the sign-in', async () => {
    const { user } = open('/duplikat/form?eid=nia&lang=en', {
      status: 200,
      body: session({ szr: null, record: null }),
    });
    const card = await screen.findByTestId('nia-not-found', {}, LONG);
    await waitFor(() => expect(alertKeys()).toEqual(['FORM.DUPLICATE_NOT_FOUND.DESCRIPTION']));
    expect(within(card).getByRole('heading', { name: 'No duplicate can be issued' })).toHaveFocus();
    expect(within(card).getByTestId('nia-new-request')).toHaveAttribute('href', '/form?eid=nia&lang=en');
    await user.click(within(card).getByTestId('nia-fill-anyway'));
    await findFinish();
    expect(box('first_name')).toHaveAttribute('readonly');
    expect(screen.getByRole('group', { name: /Reason for the duplicate|duplicate/i })).toBeInTheDocument();
  });
});
