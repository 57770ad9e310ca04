import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, TEST_METADATA } from '../test/render';

// 31.12.2027 -> code 31 + 12 + 2027 = 2070
const VALID = {
  data: { stav: 'Ano', platnost_do: '31.12.2027', jmeno: 'Jiř', prijmeni: 'Dvo' },
  a1a3: { valid_until: '31.12.2027' },
  a2: { valid_until: '30.06.2027' },
};
const URL_VALID = '/api/ros/990000001x2070/validity';

describe('validity-check page', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows a spinner, then the verified result with date, names and categories', async () => {
    const { fetchMock } = renderApp({
      path: '/check?id=990000001x2070',
      api: { [URL_VALID]: { status: 200, body: VALID } },
    });
    expect(await screen.findByTestId('validity-loading')).toHaveTextContent('Načítání');
    const result = await screen.findByTestId('validity-verified');
    expect(within(result).getByRole('heading', { level: 2 })).toHaveTextContent(
      'Doklad o spolehlivosti je platný',
    );
    expect(screen.getByTestId('validity-date')).toHaveTextContent('31.12.2027');
    expect(screen.getByTestId('validity-issued-for')).toHaveTextContent('Jiř… Dvo…');
    const table = screen.getByRole('table', { name: 'Kategorie dokladu' });
    expect(within(table).getByRole('rowheader', { name: 'A1/A3' })).toBeVisible();
    expect(within(table).getByRole('row', { name: /A2 30\.06\.2027/ })).toBeVisible();
    expect(fetchMock).toHaveBeenCalledWith(URL_VALID, expect.anything());
  });

  it('shows no table without categories', async () => {
    renderApp({
      path: '/check?id=990000001x2070&lang=en',
      api: { [URL_VALID]: { status: 200, body: { data: VALID.data } } },
    });
    expect(await screen.findByTestId('validity-verified')).toHaveTextContent(
      'The background-check certificate is valid',
    );
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("is not verified for stav 'Ne'", async () => {
    renderApp({
      path: '/check?id=990000001x2070',
      api: { [URL_VALID]: { status: 200, body: { data: { ...VALID.data, stav: 'Ne' } } } },
    });
    expect(await screen.findByTestId('validity-not-verified')).toHaveTextContent('se nepodařilo ověřit');
    expect(screen.queryByTestId('validity-date')).toBeNull();
  });

  it('checks the code itself: a mismatch empties the record and is not verified', async () => {
    // The server answered, but for a code that does not match the date (spec section 4).
    renderApp({
      path: '/check?id=990000001x2071',
      api: { '/api/ros/990000001x2071/validity': { status: 200, body: VALID } },
    });
    expect(await screen.findByTestId('validity-not-verified')).toBeVisible();
    expect(screen.queryByText(/Jiř/)).toBeNull();
  });

  it('treats 404 as not verified, without an alert', async () => {
    renderApp({ path: '/check?id=1x2' });
    expect(await screen.findByTestId('validity-not-verified')).toBeVisible();
    expect(document.querySelector('[data-alert-key]')).toBeNull();
  });

  it('shows a warning that stays on a server error, and can try again', async () => {
    let fail = true;
    renderApp({
      path: '/check?id=990000001x2070&lang=en',
      api: {
        [URL_VALID]: () =>
          fail ? { status: 503, body: { error: { code: 'X', message: 'x' } } } : { status: 200, body: VALID },
      },
    });
    expect(await screen.findByTestId('validity-error')).toBeVisible();
    const alert = document.querySelector('[data-alert-key="ALERTS.CHECK_VALIDITY_ERROR"]');
    expect(alert).not.toBeNull();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('validity-verified')).toBeVisible();
  });

  it('shows the warning on a network error', async () => {
    renderApp({ path: '/check?id=990000001x2070', api: { [URL_VALID]: new TypeError('Failed to fetch') } });
    expect(await screen.findByTestId('validity-error')).toBeVisible();
    expect(document.querySelector('[data-alert-key="ALERTS.CHECK_VALIDITY_ERROR"]')).not.toBeNull();
  });

  it.each([
    '/check?id=',
    '/check?id=1x',
    '/check?id=x1',
    '/check?id=1x2x3',
    '/check?id=-1x5',
    '/check?id=1e3x2',
  ])('%s goes to not-found', async (path) => {
    const { fetchMock } = renderApp({ path: `${path}${path.includes('?') ? '&' : '?'}lang=en` });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/not-found?lang=en'));
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringContaining('/validity'), expect.anything());
  });

  it('without an id shows a form: a typed number and date open the check of that certificate (issue 36)', async () => {
    const { fetchMock } = renderApp({
      path: '/check?lang=en',
      api: { [URL_VALID]: { status: 200, body: VALID } },
    });
    const user = userEvent.setup();
    await screen.findByTestId('check-form');
    expect(screen.getByTestId('location')).toHaveTextContent('/check?lang=en');
    // A wrong date is told at the fields and nothing is asked of the server.
    await user.type(screen.getByLabelText('Certificate number'), '990000001');
    await user.type(screen.getByLabelText('Valid until'), '31.02.2027');
    await user.click(screen.getByTestId('check-submit'));
    // Focus on the message, named by its words (read once, on focus: not a live region too);
    // the boxes keep it as their description (issue 35).
    const message = await screen.findByTestId('check-form-error');
    expect(message).toBeVisible();
    expect(message).toHaveAccessibleName(/Check the certificate number and the validity date/);
    await waitFor(() => expect(message).toHaveFocus());
    expect(message.closest('[role="alert"], [role="status"], [aria-live]')).toBeNull();
    expect(screen.getByLabelText('Certificate number')).toHaveAccessibleDescription(
      /Check the certificate number and the validity date/,
    );
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringContaining('/validity'), expect.anything());
    await user.clear(screen.getByLabelText('Valid until'));
    await user.type(screen.getByLabelText('Valid until'), '31.12.2027');
    await user.click(screen.getByTestId('check-submit'));
    expect(await screen.findByTestId('validity-verified')).toBeVisible();
    expect(screen.getByTestId('location')).toHaveTextContent('/check?id=990000001x2070&lang=en');
  });

  it('names the bot-check provider with its policies', async () => {
    renderApp({ path: '/check?id=1x2' });
    const altcha = await screen.findByTestId('validity-bot-check');
    expect(within(altcha).getByRole('link', { name: 'zásady ochrany soukromí' })).toHaveAttribute(
      'href',
      'https://altcha.org/privacy-policy/',
    );
  });

  it('names Google reCAPTCHA when that provider is active', async () => {
    renderApp({
      path: '/check?id=1x2&lang=en',
      metadata: { status: 200, body: { ...TEST_METADATA, botCheckProvider: 'recaptcha' } },
    });
    const notice = await screen.findByTestId('validity-bot-check');
    expect(within(notice).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      'https://policies.google.com/privacy?hl=en',
    );
    expect(within(notice).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      'https://policies.google.com/terms?hl=en',
    );
  });
});
