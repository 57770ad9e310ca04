import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render';
import { findFinish, TEST_LIST_ANSWERS } from '../../test/requestForm';
import { clearReferenceCache } from '../reference';

// The bot check loads the ALTCHA web component, which jsdom cannot run.
vi.mock('../botcheck', () => ({
  getBotToken: vi.fn(async () => 'bot-token'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
  BotCheckError: class extends Error {},
}));

type Answer = { status: number; body: unknown };
const LISTS = TEST_LIST_ANSWERS;
const NOT_FOUND: Answer = { status: 404, body: { error: { code: 'PERSON_NOT_FOUND', message: 'x' } } };
const box = (id: string) => document.getElementById(id) as HTMLInputElement;
const LONG = { timeout: 15000 };

async function fillSearch(user: ReturnType<typeof userEvent.setup>) {
  await user.type(box('first_name'), 'Jana');
  await user.type(box('last_name'), 'Nová');
  await user.selectOptions(box('type'), 'PAS');
  await user.type(box('number'), 'C01X00T47');
}

describe('the search step', { timeout: 30000 }, () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    clearReferenceCache();
  });

  it('the search button cannot search yet but is reachable by keyboard and says why', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/form?lang=en', api: { ...LISTS, '/api/ros/search': NOT_FOUND } });
    const button = await screen.findByTestId('search-submit', {}, LONG);
    expect(button).not.toBeDisabled();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(
      /Fill in your first name, last name, document type and number/,
    );
    button.focus();
    expect(button).toHaveFocus();
    // Pressing it shows what is missing instead of searching.
    await user.keyboard('{Enter}');
    expect(await screen.findAllByText('This field is required.')).not.toHaveLength(0);
    await fillSearch(user);
    expect(button).not.toHaveAttribute('aria-disabled');
  });

  it("the search step fetches none of step 2's pick lists; step 2 does; the municipalities only for a Czech birth (issue 14)", async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp({
      path: '/form?lang=en',
      api: { ...LISTS, '/api/ros/search': NOT_FOUND },
    });
    await screen.findByTestId('search-submit', {}, LONG);
    const fetched = (list: string) =>
      fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.includes(list));
    expect(fetched('/countries')).toEqual([]);
    await fillSearch(user);
    await user.click(screen.getByTestId('search-submit'));
    await user.click(await screen.findByTestId('fill-without-document'));
    await findFinish(LONG.timeout);
    expect(fetched('/countries')).toHaveLength(1);
    expect(fetched('/municipalities')).toEqual([]);

    // A Czech birth: the municipality box shows and fetches the list, once; it works.
    await user.type(box('birth_state'), 'czech');
    await user.keyboard('{Enter}');
    expect(box('birth_state')).toHaveValue('Czech Republic');
    await waitFor(() => expect(fetched('/municipalities')).toHaveLength(1));
    await user.type(box('birth_municipality'), 'zdar');
    await screen.findByRole('option', { name: 'Žďár (Blansko)' });
    await user.keyboard('{Enter}');
    expect(box('birth_municipality')).toHaveValue('Žďár (Blansko)');
    expect(box('birth_district')).toHaveValue('40703');
    // Another country and back: no second fetch.
    await user.clear(box('birth_state'));
    await user.type(box('birth_state'), 'germ');
    await user.keyboard('{Enter}');
    await user.clear(box('birth_state'));
    await user.type(box('birth_state'), 'czech');
    await user.keyboard('{Enter}');
    expect(box('birth_municipality')).toHaveAttribute('role', 'combobox');
    expect(fetched('/municipalities')).toHaveLength(1);
  });

  it('"fill in without a document" keeps what was typed in the search', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/form?lang=en', api: { ...LISTS, '/api/ros/search': NOT_FOUND } });
    await screen.findByTestId('search-submit', {}, LONG);
    await fillSearch(user);
    await user.click(screen.getByTestId('search-submit'));
    await user.click(await screen.findByTestId('fill-without-document'));
    await findFinish(LONG.timeout);
    expect(box('first_name')).toHaveValue('Jana');
    expect(box('last_name')).toHaveValue('Nová');
    expect(box('birth_name')).toHaveValue('Nová');
    expect(box('document_type')).toHaveValue('PAS');
    expect(box('document_number')).toHaveValue('C01X00T47');
    // Still editable: nothing came from the register; the birth name still follows the last name.
    expect(box('first_name')).not.toHaveAttribute('readonly');
    await user.type(box('last_name'), 'ková');
    expect(box('birth_name')).toHaveValue('Nováková');
  });

  it('duplicate retry state: the link to file a new request is there', async () => {
    const user = userEvent.setup();
    const person = { jmeno: 'Jana', prijmeni: 'Nová', record: null };
    renderApp({
      path: '/duplicate/form?lang=en',
      api: { ...LISTS, '/api/ros/search': { status: 200, body: person } },
    });
    await screen.findByTestId('search-submit', {}, LONG);
    await fillSearch(user);
    await user.click(screen.getByTestId('search-submit'));
    await waitFor(() => expect(box('birth_number')).toBeInTheDocument());
    expect(screen.getByRole('link', { name: /File a new request/ })).toBeInTheDocument();
  });

  it('duplicate retry: sends the match token of the search with the birth number, else the locked names and document', async () => {
    for (const match of ['m'.repeat(43), undefined]) {
      const user = userEvent.setup();
      const person = { jmeno: 'Jana', prijmeni: 'Nová', record: null, ...(match ? { match } : {}) };
      const view = renderApp({
        path: '/duplicate/form?lang=en',
        api: {
          ...LISTS,
          '/api/ros/search': { status: 200, body: person },
          '/api/ros/search-birth-number': NOT_FOUND,
        },
      });
      await screen.findByTestId('search-submit', {}, LONG);
      await fillSearch(user);
      await user.click(screen.getByTestId('search-submit'));
      await waitFor(() => expect(box('birth_number')).toBeInTheDocument());
      await user.type(box('birth_number'), '905512/1009');
      await user.click(screen.getByTestId('search-submit'));
      await waitFor(() =>
        expect(view.fetchMock.mock.calls.some(([url]) => String(url).endsWith('/search-birth-number'))).toBe(
          true,
        ),
      );
      const [, init] =
        view.fetchMock.mock.calls.find(([url]) => String(url).endsWith('/search-birth-number')) ?? [];
      expect(JSON.parse(String(init?.body))).toEqual(
        match
          ? { birth_number: '905512/1009', match }
          : {
              birth_number: '905512/1009',
              first_name: 'Jana',
              last_name: 'Nová',
              type: 'PAS',
              number: 'C01X00T47',
            },
      );
      view.unmount();
    }
  });

  it("without the document-type list the form's own types are offered, named in the page's language", async () => {
    for (const [lang, names] of [
      ['en', ['Czech identity card', 'Passport']],
      ['cs', ['Občanský průkaz ČR', 'Cestovní pas']],
    ] as const) {
      const failed: Answer = { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'x' } } };
      const view = renderApp({
        path: `/form?lang=${lang}`,
        api: { ...LISTS, '/api/ros/document-types': failed },
      });
      await screen.findByTestId('search-submit', {}, LONG);
      await waitFor(() => expect(box('type').querySelectorAll('option')).toHaveLength(3));
      const options = [...box('type').querySelectorAll('option')].slice(1);
      expect(options.map((o) => [o.value, o.textContent])).toEqual([
        ['OP_CR', names[0]],
        ['PAS', names[1]],
      ]);
      view.unmount();
    }
  });

  it('duplicate without a document: the intro does not ask for 5 years of activities', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/duplicate/form?lang=en', api: { ...LISTS, '/api/ros/search': NOT_FOUND } });
    await screen.findByTestId('search-submit', {}, LONG);
    await fillSearch(user);
    await user.click(screen.getByTestId('search-submit'));
    await user.click(await screen.findByTestId('fill-without-document'));
    const intro = await screen.findByTestId('step2-intro', {}, LONG);
    expect(intro).not.toHaveTextContent(/5 years|activities/);
    expect(intro).toHaveTextContent('identity document');
  });
});
