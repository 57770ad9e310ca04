import { currentLegalVersion, type FormValues, legalStatements } from '@ros/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render';
import {
  openConfirmDialog,
  type RequestFormOptions,
  renderRequestForm,
  tickRequired,
  VALID_VALUES,
} from '../test/requestForm';
import { ConfirmDialog, type ConfirmVariant, confirmVariant } from './ConfirmDialog';
import { DRAFT_KEY } from './draft';

// The bot check is a third-party widget (proof of work / reCAPTCHA): replaced by a fixed token.
vi.mock('./botcheck', () => ({
  getBotToken: vi.fn(async () => 'bot-token'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
}));

function dialog(
  opts: {
    variant?: ConfirmVariant;
    telephone?: string;
    processing?: boolean;
    notifyPhone?: boolean;
    nia?: boolean;
  } = {},
) {
  const onSubmit = vi.fn();
  const onClose = vi.fn();
  const onNotifyPhone = vi.fn();
  const { unmount } = renderApp({
    path: '/form?lang=en',
    children: (
      <ConfirmDialog
        variant={opts.variant ?? 'default'}
        nia={opts.nia}
        duplicate={false}
        contact={{ email: 'jana@example.cz', telephone: opts.telephone ?? '', dial_code: '+420' }}
        notifyEmail={false}
        notifyPhone={opts.notifyPhone ?? false}
        onNotifyEmail={() => {}}
        onNotifyPhone={onNotifyPhone}
        processing={opts.processing ?? false}
        onSubmit={onSubmit}
        onClose={onClose}
      />
    ),
  });
  return { onSubmit, onClose, onNotifyPhone, unmount, user: userEvent.setup() };
}

describe('ConfirmDialog', () => {
  it('sends only when the three required declarations are ticked', async () => {
    const { onSubmit, user } = dialog();
    const send = await screen.findByRole('button', { name: 'Send the request' });
    // Focus starts on the title: the dialog opens at its top and its description is read out.
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Confirm and send your request' })).toHaveFocus(),
    );
    expect(send).toHaveAttribute('aria-disabled', 'true');
    // Not sendable yet, but reachable by keyboard with the reason as its description.
    expect(send).not.toBeDisabled();
    expect(send).toHaveAccessibleDescription(/once you have confirmed all three required declarations/);
    await user.click(send);
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('confirm-signature'));
    await user.click(screen.getByTestId('confirm-affidavit'));
    expect(send).toHaveAttribute('aria-disabled', 'true');
    // The optional notifications do not unlock it.
    await user.click(screen.getByTestId('confirm-email'));
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByTestId('confirm-purpose'));
    expect(send).not.toHaveAttribute('aria-disabled');
    await user.click(screen.getByTestId('confirm-affidavit'));
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByTestId('confirm-affidavit'));
    await user.click(send);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({
      version: currentLegalVersion(),
      channel: 'paper',
      ticked: { signature: true, affidavit: true, purpose: true },
    });
  });

  it("labels each box with the legal texts' sentence, word for word, as the PDF prints it", async () => {
    for (const nia of [false, true]) {
      const { unmount } = dialog({ nia, telephone: '777 123 456' });
      const sentences = legalStatements(
        currentLegalVersion(),
        'en',
        { channel: nia ? 'nia' : 'paper', duplicate: false },
        { email: 'jana@example.cz', telephone: '777 123 456', dial_code: '+420' },
      );
      for (const s of sentences) {
        const id = s.key === 'notify_email' ? 'email' : s.key === 'notify_phone' ? 'phone' : s.key;
        const box = await screen.findByTestId(`confirm-${id}`);
        expect(box.closest('.choice-item')).toHaveTextContent(s.text, { normalizeWhitespace: true });
      }
      unmount();
    }
  });

  it('after NIA sign-in the signature declaration says NIA identifies the applicant, not a signature on paper', async () => {
    dialog({ nia: true });
    const signature = await screen.findByRole('checkbox', {
      name: /signed in through the national electronic identity/,
    });
    expect(signature).toHaveAttribute('data-testid', 'confirm-signature');
    expect(screen.queryByText(/sign the printed request by hand/)).toBeNull();
  });

  it('without NIA it asks for a signature on paper or an electronic signature', async () => {
    dialog();
    expect(await screen.findByRole('checkbox', { name: /sign the printed request by hand/ })).toBeVisible();
    expect(screen.queryByText(/national electronic identity/)).toBeNull();
  });

  it('is disabled while processing and cannot be closed then', async () => {
    const { onClose, user } = dialog({ processing: true });
    const d = await screen.findByTestId('confirm-dialog');
    expect(screen.getByTestId('confirm-submit')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('confirm-signature')).toBeDisabled();
    expect(d).toHaveAttribute('aria-busy', 'true');
    expect(within(d).getByRole('status')).toHaveTextContent('Sending your request…');
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('the SMS notification is disabled without a telephone', async () => {
    dialog({ notifyPhone: true });
    const phone = await screen.findByTestId('confirm-phone');
    expect(phone).toBeDisabled();
    expect(phone).not.toBeChecked();
    expect(phone).toHaveAccessibleDescription(
      'Text-message notifications are available only when you give a telephone number in the form.',
    );
  });

  it('the SMS notification can be chosen with a telephone', async () => {
    const { onNotifyPhone, user } = dialog({ telephone: '777123456' });
    const phone = await screen.findByTestId('confirm-phone');
    expect(phone).toBeEnabled();
    // As the PDF writes it: with the dial code, grouped.
    expect(phone.closest('.choice-item')).toHaveTextContent('+420 777 123 456');
    await user.click(phone);
    expect(onNotifyPhone).toHaveBeenCalledWith(true);
  });

  it('Escape and the back button close it; Tab stays inside', async () => {
    const { onClose, user } = dialog();
    const first = await screen.findByTestId('confirm-signature');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    // Shift+Tab from the first box goes to the last enabled control (the back button).
    first.focus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Back to the form' })).toHaveFocus();
    await user.tab();
    expect(first).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Back to the form' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('the invalid-date variant warns and changes the button', async () => {
    dialog({ variant: 'invalidDate' });
    const warning = await screen.findByTestId('confirm-warning');
    // One message: likely refused, yet it can be sent (no "cannot … but can").
    expect(warning).toHaveTextContent('will probably be refused');
    expect(warning).toHaveTextContent('you can still send it');
    expect(warning).not.toHaveTextContent(/cannot/);
    // Announced: the warning is the dialog's description, read when it opens.
    expect(screen.getByTestId('confirm-dialog')).toHaveAccessibleDescription(/will probably be refused/);
    expect(screen.getByTestId('confirm-submit')).toHaveTextContent('Send the request anyway');
  });

  it('the invalid-duplicates variant warns and changes the button', async () => {
    dialog({ variant: 'invalidDuplicates' });
    const warning = await screen.findByTestId('confirm-warning');
    expect(warning).toHaveTextContent('A duplicate will probably be refused');
    expect(screen.getByTestId('confirm-submit')).toHaveTextContent('Send the duplicate request anyway');
  });

  it('confirmVariant follows the validate answer and the mode', () => {
    expect(confirmVariant({ okDate: true, okDuplications: true }, false)).toBe('default');
    expect(confirmVariant({ okDate: false, okDuplications: true }, false)).toBe('invalidDate');
    expect(confirmVariant({ okDate: true, okDuplications: false }, true)).toBe('invalidDuplicates');
    expect(confirmVariant({ okDate: false, okDuplications: true }, true)).toBe('default');
  });
});

type Api = RequestFormOptions['api'];

/** The complete form (plus `values`), as a prefill would give it, with the API answers `api`. */
const form = (api: Api, values: Partial<FormValues> = {}) =>
  renderRequestForm({ api, values: { ...VALID_VALUES, ...values }, noPrefill: false });

const calls = (mock: ReturnType<typeof vi.fn>, path: string) =>
  mock.mock.calls.filter(([url]) => String(url) === path) as Array<[string, RequestInit]>;

describe('finish, submit and success', () => {
  const assign = vi.fn();
  beforeEach(() => {
    assign.mockReset();
    vi.stubGlobal('location', { ...window.location, assign, href: 'http://localhost/form?lang=en' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('a failed validate call is ignored: the dialog opens anyway', async () => {
    const { user, fetchMock } = form({
      '/api/ros/validate': { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } },
    });
    const d = await openConfirmDialog(user);
    expect(d).toHaveAttribute('data-variant', 'default');
    const [, init] = calls(fetchMock, '/api/ros/validate')[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({
      first_name: 'Jana',
      last_name: 'Nová',
      birth_date: '1990-03-05',
      municipality: 'München',
      aifo: '',
      document_number: 'C01X00T47',
      birth_number: '',
      duplicate: false,
    });
    // Escape closes it and focus returns to the finish button.
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('finish')).toHaveFocus());
  });

  it('okDate false opens the invalid-date variant', async () => {
    const { user } = form({
      '/api/ros/validate': { status: 200, body: { okDate: false, okDuplications: true } },
    });
    expect(await openConfirmDialog(user)).toHaveAttribute('data-variant', 'invalidDate');
  });

  it('submits once with the token and a key, then shows the success view and downloads the PDF', async () => {
    let resolveSubmit: (v: { status: number; body: unknown }) => void = () => {};
    const pending = new Promise<{ status: number; body: unknown }>((r) => {
      resolveSubmit = r;
    });
    const { user, fetchMock } = form(
      {
        '/api/ros/validate': { status: 200, body: { okDate: true, okDuplications: true } },
        '/api/ros': () => new Error('replaced below'),
      },
      { abroad_stay: [{ state: 'DE', reason: 'Studium' }], telephone: '777123456' },
    );
    // The submit answer waits until the test lets it go (to click twice while processing).
    const original = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/api/ros') {
        const a = await pending;
        return new Response(JSON.stringify(a.body), { status: a.status });
      }
      return original?.(input, init) as Promise<Response>;
    });
    await openConfirmDialog(user);
    await tickRequired(user);
    await user.click(screen.getByTestId('confirm-email'));
    await user.click(screen.getByTestId('confirm-phone'));
    const send = screen.getByTestId('confirm-submit');
    await user.click(send);
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.click(send);
    resolveSubmit({ status: 201, body: { text: 'ok', id: 'A'.repeat(24), reference: 'ROS-2026-000042' } });
    const success = await screen.findByTestId('submit-success');
    expect(calls(fetchMock, '/api/ros')).toHaveLength(1);
    const [, init] = calls(fetchMock, '/api/ros')[0] ?? [];
    const headers = init?.headers as Record<string, string>;
    expect(headers.Recaptcha).toBe('bot-token');
    expect(headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{32,36}$/);
    const body = JSON.parse(String(init?.body));
    expect(body).toMatchObject({
      first_name: 'Jana',
      language: 'en',
      duplicate: false,
      send_notifications_email: true,
      send_notifications_phone: true,
      // What the applicant agreed to (issue 22): the texts' version, the channel, boxes 1-3.
      legal_version: currentLegalVersion(),
      legal_channel: 'paper',
      declaration_signature: true,
      declaration_affidavit: true,
      declaration_purpose: true,
    });
    expect(within(success).getByTestId('submit-reference')).toHaveTextContent('ROS-2026-000042');
    // Not "sent": in the PDF flow nothing reaches the authority until the person sends it.
    // Focus moves in an effect after the dialog has closed (and given focus back): wait for it.
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Your request is ready to sign and send' })).toHaveFocus(),
    );
    expect(screen.queryByText(/has been sent/)).toBeNull();
    expect(success).toHaveTextContent('the Authority does not have it yet');
    // What happens next: print, sign, send by post / data mailbox / in person, with the address.
    const steps = within(success)
      .getAllByRole('listitem')
      .map((li) => li.textContent ?? '');
    expect(steps.some((s) => s.startsWith('Print the request'))).toBe(true);
    expect(steps.some((s) => s.startsWith('Sign it by hand'))).toBe(true);
    expect(success).toHaveTextContent(
      'by post to: Úřad pro civilní letectví, K Letišti 1149/23, 160 08 Prague 6',
    );
    expect(success).toHaveTextContent("to the authority's data mailbox");
    expect(success).toHaveTextContent('in person');
    expect(screen.getByTestId('attachment-alert')).toHaveTextContent('Attach these documents');
    expect(screen.getByTestId('attachment-alert')).toHaveTextContent('criminal record');
    expect(screen.getByTestId('pdf-link')).toHaveAttribute('href', `/api/ros/pdf/${'A'.repeat(24)}`);
    expect(assign).toHaveBeenCalledWith(`/api/ros/pdf/${'A'.repeat(24)}`);
    expect(window.sessionStorage.getItem(DRAFT_KEY)).toBeNull();
    await user.click(screen.getByTestId('submit-exit'));
    expect(assign).toHaveBeenLastCalledWith('/?lang=en');
  });

  it('a failed submit shows the error, closes the dialog and keeps the answers; a retry reuses the key', async () => {
    let fail = true;
    const { user, fetchMock } = form({
      '/api/ros/validate': { status: 200, body: { okDate: true, okDuplications: true } },
      '/api/ros': () =>
        fail
          ? { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'x' } } }
          : { status: 200, body: { text: 'ok', id: 'B'.repeat(24), reference: 'ROS-2026-000043' } },
    });
    await openConfirmDialog(user);
    await tickRequired(user);
    await user.click(screen.getByTestId('confirm-submit'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    // Seen and announced: the message at the top of the form takes focus (not the finish
    // button far below) and is read on focus, named by its heading; once: not also a live region
    // (issue 35), and no second alert in the list on top.
    const notice = screen.getByTestId('form-notice');
    expect(notice).toHaveAttribute('data-alert-key', 'ALERTS.SUBMIT_FORM_ERROR');
    expect(notice).toHaveRole('region');
    expect(notice).toHaveAccessibleName('Your request was not sent');
    expect(notice.closest('[role="alert"], [role="status"], [aria-live]')).toBeNull();
    await waitFor(() => expect(notice).toHaveFocus());
    expect(document.querySelectorAll('[data-alert-key="ALERTS.SUBMIT_FORM_ERROR"]')).toHaveLength(1);
    expect(within(notice).getByRole('button', { name: 'Send the request again' })).toBeInTheDocument();
    expect(document.getElementById('first_name')).toHaveValue('Jana');
    expect(screen.queryByTestId('submit-success')).toBeNull();
    expect(assign).not.toHaveBeenCalled();

    fail = false;
    await openConfirmDialog(user);
    // The declarations are confirmed again on each opening.
    expect(screen.getByTestId('confirm-submit')).toHaveAttribute('aria-disabled', 'true');
    await tickRequired(user);
    await user.click(screen.getByTestId('confirm-submit'));
    await screen.findByTestId('submit-success');
    const keys = calls(fetchMock, '/api/ros').map(
      ([, i]) => (i.headers as Record<string, string>)['Idempotency-Key'],
    );
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    // No stays abroad: no criminal-record extracts; no Czech birth number: a copy of the identity
    // document (the same list as the PDF's).
    const attachments = screen.getByTestId('attachment-alert');
    expect(attachments).not.toHaveTextContent('criminal record');
    expect(attachments).toHaveTextContent('copy of your identity document');
  });
  it('a send the bot check refuses says so, not "check your connection" (issue 35)', async () => {
    const { user } = form({
      '/api/ros/validate': { status: 200, body: { okDate: true, okDuplications: true } },
      '/api/ros': { status: 403, body: { error: { code: 'BOT_CHECK_FAILED', message: 'x' } } },
    });
    await openConfirmDialog(user);
    await tickRequired(user);
    await user.click(screen.getByTestId('confirm-submit'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    const notice = screen.getByTestId('form-notice');
    expect(notice).toHaveAttribute('data-alert-key', 'ALERTS.SUBMIT_BOT_CHECK_FAILED');
    expect(notice).toHaveAccessibleDescription(/could not confirm that you are not a robot/);
    expect(notice).not.toHaveTextContent(/internet connection/);
    await waitFor(() => expect(notice).toHaveFocus());
    expect(within(notice).getByRole('button', { name: 'Send the request again' })).toBeInTheDocument();
  });
});
