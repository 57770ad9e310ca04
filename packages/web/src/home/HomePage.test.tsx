import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, TEST_METADATA } from '../test/render';

describe('home choices', () => {
  let assign: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({
      ...window.location,
      assign,
    } as unknown as Location);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const cases = [
    { path: '/', from: 'form', basic: '/form' },
    { path: '/?lang=en', from: 'form-en', basic: '/form?lang=en' },
    { path: '/duplikat', from: 'duplicate', basic: '/duplikat/form' },
    { path: '/duplicate', from: 'duplicate', basic: '/duplikat/form' },
    { path: '/duplikat?lang=en', from: 'duplicate-en', basic: '/duplicate/form?lang=en' },
    { path: '/duplicate?lang=en', from: 'duplicate-en', basic: '/duplicate/form?lang=en' },
  ];

  for (const { path, from, basic } of cases) {
    it(`${path}: sign-in goes to sso-redirect?from=${from}, the other choice to ${basic}`, async () => {
      renderApp({ path });
      const eid = await screen.findByTestId('choice-eid');
      expect(eid).toHaveAttribute('href', `/api/ros/sso-redirect?from=${from}`);
      fireEvent.click(eid);
      expect(assign).toHaveBeenCalledWith(`/api/ros/sso-redirect?from=${from}`);
      expect(screen.getByTestId('choice-basic')).toHaveAttribute('href', basic);
    });
  }

  it('with use_eid NO the first choice opens the form with eid=eid, keeping the language', async () => {
    renderApp({
      path: '/duplicate?lang=en',
      metadata: { status: 200, body: { ...TEST_METADATA, use_eid: 'NO' } },
    });
    const eid = await screen.findByTestId('choice-eid');
    expect(eid).toHaveAttribute('href', '/duplicate/form?eid=eid&lang=en');
    await userEvent.click(eid);
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent('/duplicate/form?eid=eid&lang=en');
  });

  it('with use_eid NO the first card does not promise a sign-in', async () => {
    renderApp({ path: '/?lang=en', metadata: { status: 200, body: { ...TEST_METADATA, use_eid: 'NO' } } });
    const eid = await screen.findByTestId('choice-eid');
    const card = eid.closest('section') as HTMLElement;
    expect(card).toHaveTextContent('Fill in the whole request yourself');
    expect(card).not.toHaveTextContent(/Sign in|bank identity|NIA|straight to the authority/);
    expect(eid).toHaveTextContent('Fill in the whole request');
  });

  it('shows the mode in the heading and explains both choices', async () => {
    renderApp({ path: '/duplikat' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Jak chcete žádost o duplikát podat?' }),
    ).toBeVisible();
    expect(
      screen.getByRole('heading', { level: 2, name: 'S přihlášením přes identitu občana' }),
    ).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Bez přihlášení' })).toBeVisible();
    expect(screen.getByText(/vlastnoručně podepíšete a pošlete/)).toBeVisible();
  });
});

describe('ways in for who applied or holds a certificate (issue 36)', () => {
  it.each([
    ['/', '/stav-zadosti', '/check'],
    ['/?lang=en', '/request-status?lang=en', '/check?lang=en'],
  ])('%s links the status page and the validity check', async (path, status, check) => {
    renderApp({ path });
    const ways = await screen.findByTestId('home-ways-in');
    expect(within(ways).getByTestId('home-status-link')).toHaveAttribute('href', status);
    expect(within(ways).getByTestId('home-check-link')).toHaveAttribute('href', check);
  });
});
