import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render';
import { DRAFT_KEY } from './draft';
import { LeaveGuardHost } from './LeaveDialog';
import { leavesScreen, useLeaveGuard } from './leaveGuard';

// The bot check is a third-party widget that the search step loads; not needed here.
vi.mock('./botcheck', () => ({
  getBotToken: vi.fn(async () => 'bot-token'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
}));

/** Stands in for the form: a box that makes it dirty, like typed input. */
function Form() {
  const [dirty, setDirty] = useState(false);
  useLeaveGuard(dirty);
  return (
    <label>
      <input type="checkbox" checked={dirty} onChange={(e) => setDirty(e.target.checked)} />
      typed
    </label>
  );
}

/** The form screen at /form (host + form, as FormPage does); anything else is another screen. */
function Screens({ host = true }: { host?: boolean }) {
  return (
    <Routes>
      <Route
        path="form"
        element={
          host ? (
            <LeaveGuardHost>
              <Form />
            </LeaveGuardHost>
          ) : (
            <Form />
          )
        }
      />
      <Route path="*" element={<p>another screen</p>} />
    </Routes>
  );
}

const location = () => screen.getByTestId('location').textContent;
const homeLink = () => screen.getByRole('link', { name: /home page/ });

function setup(path = '/form?lang=en', host = true) {
  const view = renderApp({ path, children: <Screens host={host} /> });
  return { ...view, user: userEvent.setup() };
}

describe('leavesScreen', () => {
  const at = (pathname: string, search = '') => ({ pathname, search });
  it('a language switch or a hash keeps the screen', () => {
    expect(leavesScreen(at('/form', '?lang=en'), at('/form'))).toBe(false);
    expect(leavesScreen(at('/form', '?eid=eid'), at('/form', '?eid=eid&lang=en'))).toBe(false);
    expect(leavesScreen(at('/form', '?lang=en&eid=eid'), at('/form', '?eid=eid&lang=en'))).toBe(false);
  });
  it('another path or another query is another screen', () => {
    expect(leavesScreen(at('/form', '?lang=en'), at('/', '?lang=en'))).toBe(true);
    expect(leavesScreen(at('/form'), at('/duplicate/form'))).toBe(true);
    expect(leavesScreen(at('/form'), at('/form', '?eid=eid'))).toBe(true);
  });
});

// Each test renders the whole shell; on a busy machine that alone can take seconds.
describe('useLeaveGuard with its host', { timeout: 20000 }, () => {
  it('an untouched form leaves without asking', async () => {
    const { user } = setup();
    await screen.findByRole('checkbox');
    await user.click(homeLink());
    await waitFor(() => expect(location()).toBe('/?lang=en'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks before a link leaves; Escape and Stay keep the form, Leave goes', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('checkbox'));

    await user.click(homeLink());
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave the form?' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription(/has not been sent/);
    const stay = screen.getByRole('button', { name: 'Stay on the form' });
    await waitFor(() => expect(stay).toHaveFocus());
    // Tab stays inside the dialog.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Leave the form' })).toHaveFocus();
    await user.tab();
    expect(stay).toHaveFocus();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(location()).toBe('/form?lang=en');
    expect(screen.getByRole('checkbox')).toBeChecked();
    await waitFor(() => expect(homeLink()).toHaveFocus());

    await user.click(homeLink());
    await user.click(await screen.findByRole('button', { name: 'Stay on the form' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(location()).toBe('/form?lang=en');

    await user.click(homeLink());
    await user.click(await screen.findByRole('button', { name: 'Leave the form' }));
    await waitFor(() => expect(location()).toBe('/?lang=en'));
    expect(screen.getByText('another screen')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks on Back inside the app too', async () => {
    const { user, router } = setup('/check?lang=en');
    await act(() => router.navigate('/form?lang=en'));
    await user.click(await screen.findByRole('checkbox'));

    await act(() => router.navigate(-1));
    await user.click(await screen.findByRole('button', { name: 'Stay on the form' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(location()).toBe('/form?lang=en');

    await act(() => router.navigate(-1));
    await user.click(await screen.findByRole('button', { name: 'Leave the form' }));
    await waitFor(() => expect(location()).toBe('/check?lang=en'));
  });

  it('the language switch keeps the form and does not ask', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('checkbox'));
    await user.click(screen.getByRole('link', { name: 'Čeština' }));
    await waitFor(() => expect(location()).toBe('/form'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('checkbox')).toBeChecked();
  });

  it('no longer asks once the input is gone (sent or discarded)', async () => {
    const { user } = setup();
    const box = await screen.findByRole('checkbox');
    await user.click(box);
    await user.click(box);
    await user.click(homeLink());
    await waitFor(() => expect(location()).toBe('/?lang=en'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps the browser question for closing or reloading the tab', async () => {
    const { user } = setup();
    const event = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(event()).toBe(false);
    await user.click(await screen.findByRole('checkbox'));
    expect(event()).toBe(true);
  });
});

describe('useLeaveGuard without a host', { timeout: 20000 }, () => {
  it('does not block in-app navigation (nothing could ask)', async () => {
    const { user } = setup('/form?lang=en', false);
    await user.click(await screen.findByRole('checkbox'));
    await user.click(homeLink());
    await waitFor(() => expect(location()).toBe('/?lang=en'));
  });
});

describe('the form screen (FormPage)', { timeout: 30000 }, () => {
  const draft = {
    version: 1,
    duplicate: false,
    values: { first_name: 'Jana' },
    readOnly: [],
    noPrefill: true,
    dataMailboxDelivery: false,
    dialCode: '+420',
    birthNameTouched: false,
    modalShown: false,
  };

  it("keeps the tab's draft on a language switch and drops it when the app leaves the form", async () => {
    window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
    const user = userEvent.setup();
    renderApp({ path: '/form?lang=en' });
    // The form screen is a lazy chunk: the first load may take a while.
    await screen.findByRole('heading', { name: 'Filling in the form by hand' }, { timeout: 15000 });
    await user.click(screen.getByRole('link', { name: 'Čeština' }));
    await waitFor(() => expect(location()).toBe('/form'));
    expect(screen.getByRole('heading', { name: 'Ruční vyplnění žádosti' })).toBeInTheDocument();
    expect(window.sessionStorage.getItem(DRAFT_KEY)).not.toBeNull();
    await user.click(screen.getByRole('link', { name: /úvodní stránka/ }));
    await waitFor(() => expect(location()).toBe('/'));
    expect(window.sessionStorage.getItem(DRAFT_KEY)).toBeNull();
  });
});
