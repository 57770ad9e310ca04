import { screen, waitFor, within } from '@testing-library/react';
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

  it('a pick list that fails is said in a region there before it, with "Try again" (issue 35)', async () => {
    const user = userEvent.setup();
    const failed: Answer = { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'x' } } };
    let countriesFail = true;
    let municipalitiesFail = true;
    renderApp({
      path: '/form?lang=en',
      api: {
        ...LISTS,
        '/api/ros/search': NOT_FOUND,
        '/api/ros/countries': () => (countriesFail ? failed : (LISTS['/api/ros/countries'] as Answer)),
        '/api/ros/municipalities': () =>
          municipalitiesFail ? failed : (LISTS['/api/ros/municipalities'] as Answer),
      },
    });
    await screen.findByTestId('search-submit', {}, LONG);
    await fillSearch(user);
    await user.click(screen.getByTestId('search-submit'));
    await user.click(await screen.findByTestId('fill-without-document'));
    // Step 2's lists: the message comes into the region that was there while they loaded.
    const listsError = await screen.findByTestId('lists-error', {}, LONG);
    expect(listsError).toHaveTextContent('We could not load the lists the form needs');
    expect(listsError.parentElement).toHaveAttribute('role', 'alert');
    countriesFail = false;
    await user.click(within(listsError).getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Filling in the form by hand' })).toHaveFocus();
    await findFinish(LONG.timeout);
    // The municipalities: under their box, in a region that was there while they loaded.
    await user.type(box('birth_state'), 'czech');
    await user.keyboard('{Enter}');
    const region = box('birth_municipality').closest('.field')?.nextElementSibling;
    expect(region).toHaveAttribute('role', 'alert');
    const error = await screen.findByTestId('municipalities-error', {}, LONG);
    expect(error.parentElement).toBe(region);
    municipalitiesFail = false;
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(box('birth_municipality')).toHaveFocus();
    await waitFor(() => expect(screen.queryByTestId('municipalities-error')).toBeNull());
    expect(region).toBeEmptyDOMElement();
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

  it('duplicate retry: its message is said in the region above the birth-number box, there before it; focus on the box (issue 35)', async () => {
    const user = userEvent.setup();
    const person = { jmeno: 'Jana', prijmeni: 'Nová', record: null };
    renderApp({
      path: '/duplicate/form?lang=en',
      api: { ...LISTS, '/api/ros/search': { status: 200, body: person } },
    });
    await screen.findByTestId('search-submit', {}, LONG);
    // The live region is in the page, empty, before the search.
    const region = document.querySelector('.search__grid > [role="alert"]');
    expect(region).not.toBeNull();
    expect(region).toBeEmptyDOMElement();
    await fillSearch(user);
    await user.click(screen.getByTestId('search-submit'));
    await waitFor(() => expect(box('birth_number')).toHaveFocus());
    const notice = screen.getByTestId('retry-notice');
    expect(notice.parentElement).toBe(region);
    expect(notice).toHaveTextContent(/We found you, but we have no certificate/);
    // Right above the box, not in the list at the top of the page.
    expect(
      notice.compareDocumentPosition(box('birth_number')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(document.querySelector('.alert-list [data-alert-key]')).toBeNull();
    // Not the box's description as well (it would be said twice).
    expect(box('birth_number')).not.toHaveAccessibleDescription(/no certificate/);
    // Closed: focus back on the box.
    await user.click(within(notice).getByRole('button', { name: 'Close message' }));
    expect(screen.queryByTestId('retry-notice')).toBeNull();
    expect(box('birth_number')).toHaveFocus();
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
    // Step 2 has its lists and every section (each list is fetched in a task of its own): the
    // test ends on a form at rest, with no call of it still on its way when the file's
    // environment goes.
    await findFinish(LONG.timeout);
  });
});
