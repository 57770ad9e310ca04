import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render';
import { TEST_LIST_ANSWERS } from '../test/requestForm';
import { clearReferenceCache } from './reference';

vi.mock('./botcheck', () => ({
  getBotToken: vi.fn(async () => 'bot-token'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
  BotCheckError: class extends Error {},
}));

const box = (id: string) => document.getElementById(id) as HTMLInputElement;
const LONG = { timeout: 15000 };
const PERSON = { jmeno: 'Jana', prijmeni: 'Nová', record: null, match: 'm'.repeat(43) };

async function search(validate: { status: number; body: unknown }) {
  const user = userEvent.setup();
  const view = renderApp({
    path: '/form?lang=en',
    api: {
      ...TEST_LIST_ANSWERS,
      '/api/ros/search': { status: 200, body: PERSON },
      '/api/ros/validate': validate,
    },
  });
  await screen.findByTestId('search-submit', {}, LONG);
  await user.type(box('first_name'), 'Jana');
  await user.type(box('last_name'), 'Nová');
  await user.selectOptions(box('type'), 'PAS');
  await user.type(box('number'), 'C01X00T47');
  await user.click(screen.getByTestId('search-submit'));
  return { user, ...view };
}

/** Issue 36, point 1: told right after the search, with the dates, before the form. */
describe('told early that a request will probably be refused', { timeout: 30000 }, () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    clearReferenceCache();
  });

  it('a certificate valid beyond the window: the notice with its dates comes before the form; going on shows the form', async () => {
    const { user, fetchMock } = await search({
      status: 200,
      body: {
        okDate: false,
        okDuplications: true,
        reason: { rule: 'renewal-window', validUntil: '2027-12-31', from: '2027-10-02' },
      },
    });
    const notice = await screen.findByTestId('early-refusal', {}, LONG);
    expect(screen.getByTestId('early-refusal-reason')).toHaveTextContent(
      'your background-check certificate is valid until 31 December 2027, and a new one can be requested from 2 October 2027 at the earliest.',
    );
    await waitFor(() => expect(notice.querySelector('h2')).toHaveFocus());
    expect(box('employer_current_name')).toBeNull();
    // The search's match token proved the person to validate.
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).includes('/validate')) ?? [];
    expect(JSON.parse(String((init as RequestInit).body)).match).toBe(PERSON.match);
    await user.click(screen.getByTestId('early-refusal-continue'));
    await screen.findByTestId('finish', {}, LONG);
    expect(screen.queryByTestId('early-refusal')).toBeNull();
  });

  it('no reason, or a failed validate: straight to the form', async () => {
    for (const validate of [
      { status: 200, body: { okDate: true, okDuplications: true } },
      { status: 503, body: { error: { code: 'X', message: 'x' } } },
    ]) {
      const { unmount } = await search(validate);
      await screen.findByTestId('finish', {}, LONG);
      expect(screen.queryByTestId('early-refusal')).toBeNull();
      unmount();
      window.sessionStorage.clear();
    }
    await waitFor(() => expect(screen.queryByTestId('finish')).toBeNull());
  });
});
