import {
  attachmentNotes,
  catalogueEntries,
  currentLegalVersion,
  type FormValues,
  maxLengthFor,
} from '@ros/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  findFinish,
  openConfirmDialog,
  renderRequestForm,
  TEST_LISTS,
  tickRequired,
  type User,
  VALID_VALUES,
} from '../test/requestForm';
import { DRAFT_KEY } from './draft';
import { monthRanges } from './RequestForm';

// The bot check loads the ALTCHA web component, which jsdom cannot run; the dialog only needs a token.
vi.mock('./botcheck', () => ({
  getBotToken: vi.fn(async () => 't'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
}));

const box = (id: string) => document.getElementById(id) as HTMLInputElement;

async function choose(user: User, id: string, typed: string) {
  await user.clear(box(id));
  await user.type(box(id), typed);
  await user.keyboard('{Enter}');
}

describe('RequestForm reactions', () => {
  it('other citizenships: "Clear all" removes every chosen country and keeps focus in the field', async () => {
    const { user } = renderRequestForm({ values: { other_citizenships: ['SK'] } });
    await findFinish();
    // One country: its own remove button is enough.
    expect(screen.queryByRole('button', { name: 'Clear all' })).toBeNull();
    await choose(user, 'other_citizenships', 'Germ');
    expect(
      within(document.getElementById('other_citizenships-chosen') as HTMLElement).getAllByRole('listitem'),
    ).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(document.getElementById('other_citizenships-chosen')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear all' })).toBeNull();
    expect(document.activeElement).toBe(box('other_citizenships'));
  });

  it('copies the last name to the birth name until the birth name is edited', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    await user.type(box('last_name'), 'Nová');
    expect(box('birth_name')).toHaveValue('Nová');
    await user.clear(box('birth_name'));
    await user.type(box('birth_name'), 'Stará');
    await user.type(box('last_name'), 'ková');
    expect(box('last_name')).toHaveValue('Nováková');
    expect(box('birth_name')).toHaveValue('Stará');
  });

  it('birth country: CZ picks a municipality from the list and sets its district; elsewhere free text', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    await choose(user, 'birth_state', 'germ');
    expect(box('birth_state')).toHaveValue('Germany');
    // Not a disabled box: no district at all outside the Czech Republic (issue 36).
    expect(box('birth_district')).toBeNull();
    expect(box('birth_municipality')).not.toHaveAttribute('role', 'combobox');
    await user.type(box('birth_municipality'), 'München');
    await choose(user, 'birth_state', 'czech');
    expect(box('birth_municipality')).toHaveAttribute('role', 'combobox');
    expect(box('birth_municipality')).toHaveValue('');
    expect(box('birth_district')).toBeEnabled();
    // Prefix, case- and diacritics-insensitive.
    await choose(user, 'birth_municipality', 'zdar');
    expect(box('birth_municipality')).toHaveValue('Žďár (Blansko)');
    expect(box('birth_district')).toHaveValue('40703');
  });

  it('enables the birth number only with a valid birth date; pads a whole date, never guesses a month or year', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    expect(box('birth_number')).toBeDisabled();
    await user.type(box('birth_date'), '5.3.1990');
    expect(box('birth_number')).toBeEnabled();
    await user.tab();
    expect(box('birth_date')).toHaveValue('05.03.1990');
    await user.clear(box('birth_date'));
    await user.type(box('birth_date'), '31.02.1990');
    expect(box('birth_number')).toBeDisabled();
    // Issue 22: "7" was completed to the 7th of this month. It stays as typed, and says why it is not a date.
    await user.clear(box('birth_date'));
    await user.type(box('birth_date'), '7');
    await user.tab();
    expect(box('birth_date')).toHaveValue('7');
    expect(box('birth_number')).toBeDisabled();
    expect(document.getElementById('birth_date-error')).toHaveTextContent(
      'Enter the day, the month and the year, for example 15.03.1985.',
    );
  });

  it('a birth date in the future or more than 100 years ago says what is wrong, not "wrong format"', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    const next = new Date().getFullYear() + 1;
    await user.type(box('birth_date'), `01.01.${next}`);
    await user.tab();
    expect(document.getElementById('birth_date-error')).toHaveTextContent(
      'The date of birth must not be in the future.',
    );
    await user.clear(box('birth_date'));
    await user.type(box('birth_date'), '01.01.1901');
    await user.tab();
    expect(document.getElementById('birth_date-error')).toHaveTextContent(
      'The date of birth must be within the last 100 years.',
    );
    expect(document.getElementById('birth_date-error')).not.toHaveTextContent(/correct format/);
  });

  it('citizenship ## disables and clears the second; CZ makes the birth number required', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    expect(screen.getByText('Birth number', { selector: 'label' })).toHaveTextContent('(optional)');
    await choose(user, 'citizen_of_1', 'cz');
    expect(screen.getByText('Birth number', { selector: 'label' })).not.toHaveTextContent('(optional)');
    await choose(user, 'citizen_of_2', 'slov');
    expect(box('citizen_of_2')).toHaveValue('Slovakia');
    await choose(user, 'citizen_of_1', 'state');
    expect(box('citizen_of_2')).toBeDisabled();
    expect(box('citizen_of_2')).toHaveValue('');
  });

  it('offers DATOVKOU only with a known data mailbox', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    const delivery = box('delivery_type') as unknown as HTMLSelectElement;
    const codes = () => [...delivery.options].map((o) => o.value);
    expect(codes()).not.toContain('DATOVKOU');
    await user.type(box('data_mailbox'), 'abc12');
    expect(codes()).not.toContain('DATOVKOU');
    await user.type(box('data_mailbox'), '34');
    expect(codes()).toContain('DATOVKOU');
  });

  it('hides the data mailbox when a prefill does not know one; shows it read-only when it does', async () => {
    renderRequestForm({ noPrefill: false });
    await findFinish();
    expect(box('data_mailbox')).toBeNull();
    const codes = [...(box('delivery_type') as unknown as HTMLSelectElement).options].map((o) => o.value);
    expect(codes).not.toContain('DATOVKOU');
  });

  it('a register person with a Czech second citizenship needs the birth number, as on the server', async () => {
    // Stateless (##) in the first citizenship: the second (CZ) is not prefilled, only the
    // register context (registerFormContext) knows the person is Czech.
    const { user } = renderRequestForm({
      person: { jmeno: 'Petr', prijmeni: 'Malý', dat_nar: '1980-01-02', st_kod: '##', web_st_kod2: 'CZ' },
    });
    await findFinish();
    expect(box('citizen_of_2')).toHaveValue('');
    expect(box('birth_number')).toHaveAttribute('aria-required', 'true');
    // The draft keeps it: a reload of the tab still requires the birth number.
    expect(JSON.parse(window.sessionStorage.getItem(DRAFT_KEY) ?? '{}').czechCitizen).toBe(true);
    await user.click(screen.getByTestId('finish'));
    expect(await screen.findByText(/birth number/i, { selector: '#birth_number-error' })).toBeInTheDocument();
  });

  it('prefilled fields are read-only; DATOVKOU is offered for a known data mailbox', async () => {
    renderRequestForm({
      noPrefill: false,
      dataMailboxDelivery: true,
      values: { first_name: 'Martin', data_mailbox: 'h7k2m9p', citizen_of_1: 'CZ', birth_date: '1972-02-28' },
      readOnly: ['first_name', 'data_mailbox', 'citizen_of_1', 'birth_date'],
    });
    await findFinish();
    expect(box('first_name')).toHaveAttribute('readonly');
    expect(box('data_mailbox')).toHaveAttribute('readonly');
    expect(box('citizen_of_1')).toHaveAttribute('readonly');
    expect(box('citizen_of_1')).toHaveValue('Czech Republic');
    expect(box('birth_date')).toHaveValue('28.02.1972');
    const codes = [...(box('delivery_type') as unknown as HTMLSelectElement).options].map((o) => o.value);
    expect(codes).toContain('DATOVKOU');
  });

  it('disables field2 for activity type Other; rows are added and removed', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    await user.click(screen.getByTestId('add-activity'));
    await waitFor(() => expect(box('past_activities-0-from')).toHaveFocus());
    await user.selectOptions(box('past_activities-0-type'), '3');
    expect(box('past_activities-0-field2')).toBeDisabled();
    await user.selectOptions(box('past_activities-0-type'), '1');
    expect(box('past_activities-0-field2')).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Remove activity 1' }));
    expect(screen.queryAllByTestId('activity-row')).toHaveLength(0);
  });

  it('the first stay abroad opens the modal (Escape closes, focus moves on); add hides at 6', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    await user.click(screen.getByTestId('add-abroad'));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    // One instruction (issue 36): the legal texts' note, as the success screen and the PDF print it.
    expect(screen.getByTestId('abroad-modal-note').textContent).toBe(
      attachmentNotes(currentLegalVersion(), 'en', ['abroad'])[0],
    );
    expect(within(dialog).getByRole('button')).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole('button')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(box('abroad_stay-0-state')).toHaveFocus());
    for (let i = 1; i < 6; i++) await user.click(screen.getByTestId('add-abroad'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getAllByTestId('abroad-row')).toHaveLength(6);
    expect(screen.queryByTestId('add-abroad')).toBeNull();
  });

  it('copies the home address into the contact address', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    await user.type(box('home_street'), 'Dlouhá');
    await user.type(box('home_city'), 'Brno');
    await choose(user, 'home_state', 'cz');
    await user.click(screen.getByTestId('copy-home'));
    expect(box('contact_street')).toHaveValue('Dlouhá');
    expect(box('contact_city')).toHaveValue('Brno');
    expect(box('contact_state')).toHaveValue('Czech Republic');
  });
});

describe('RequestForm controls come from the field catalogue', () => {
  it('each field gets the control of its kind: countries a combobox, code lists a select, text its length', async () => {
    renderRequestForm({ values: { birth_state: 'CZ', telephone: '601123456' } });
    await findFinish();
    const checked: string[] = [];
    for (const { path, spec } of catalogueEntries()) {
      if (path.includes('*') || spec.kind === 'boolean') continue;
      const el = box(path);
      // Sent and kept, never shown (AIFO from NIA; the register's position and reason); the birth
      // date has its own date box.
      if (['aifo', 'employer_current_position', 'reason_for_request', 'birth_date'].includes(path)) continue;
      expect(el, path).not.toBeNull();
      checked.push(path);
      switch (spec.kind) {
        case 'country':
        case 'municipality':
          expect(el, path).toHaveAttribute('role', 'combobox');
          break;
        case 'list':
        case 'choice':
        case 'district':
          // The employment proof: a few long names, radio buttons in a fieldset.
          expect(el.tagName, path).toBe(path === 'employer_verification_type' ? 'FIELDSET' : 'SELECT');
          break;
        default:
          expect(el.maxLength, path).toBe(maxLengthFor(path));
      }
    }
    expect(checked).toContain('birth_municipality');
    expect(checked).toHaveLength(34);
  });
});

describe('RequestForm errors and finish', () => {
  it('shows the first error only after the user changed the field, linked by aria-describedby', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    expect(box('first_name')).not.toHaveAttribute('aria-invalid');
    await user.type(box('first_name'), 'J');
    await user.clear(box('first_name'));
    expect(box('first_name')).toHaveAttribute('aria-invalid', 'true');
    expect(box('first_name')).toHaveAttribute('aria-describedby', 'first_name-error');
    // The message names its field (GOV.UK style), the same in the summary.
    expect(screen.getByText('Enter your first name')).toHaveAttribute('id', 'first_name-error');
    expect(box('last_name')).not.toHaveAttribute('aria-invalid');
    await user.type(box('telephone'), '12a');
    expect(document.getElementById('telephone-error')).toHaveTextContent(/9 digits/);
  });

  it('finish with an invalid form: alert, error summary with links, focus on it', async () => {
    const { user } = renderRequestForm();
    const finish = await findFinish();
    expect(finish).toHaveAttribute('data-state', 'invalid');
    await user.click(finish);
    const summary = await screen.findByTestId('error-summary');
    await waitFor(() => expect(summary).toHaveFocus());
    const link = within(summary).getAllByRole('link')[0] as HTMLAnchorElement;
    expect(link).toHaveAttribute('href', '#first_name');
    expect(document.querySelector('[data-alert-key="ALERTS.FORM_INVALID"]')).not.toBeNull();
    await user.click(link);
    expect(box('first_name')).toHaveFocus();
    expect(box('email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the uncovered months, the clock state and TIME_NOT_COVERED after editing the employer start', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    const now = new Date();
    const mm = String(now.getMonth() + 1).padStart(2, '0');
    await user.type(box('employer_current_from'), `${mm}/${now.getFullYear()}`);
    await user.tab();
    expect(document.querySelector('[data-alert-key="ALERTS.TIME_NOT_COVERED"]')).not.toBeNull();
    expect(screen.getByTestId('coverage')).toHaveTextContent('(59)');
    await user.clear(box('employer_current_from'));
    await user.type(box('employer_current_from'), `01/${now.getFullYear() - 6}`);
    expect(screen.getByTestId('coverage')).toHaveTextContent('The last 5 years are covered.');
    // The warning under the start box does not outlive it (issue 36).
    expect(document.querySelector('[data-alert-key="ALERTS.TIME_NOT_COVERED"]')).toBeNull();
  });

  it('a complete form: the finish button is highlighted and finishing shows the complete state', async () => {
    const { user } = renderRequestForm({ values: VALID_VALUES, noPrefill: false });
    const finish = await findFinish();
    expect(finish).toHaveAttribute('data-state', 'valid');
    expect(finish).toHaveClass('btn--primary');
    await user.click(finish);
    // A valid form opens the confirmation dialog; Escape closes it again.
    await screen.findByTestId('confirm-dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    // Focus goes back to the finish button in the next frame (useSubmitFlow's closeDialog): wait
    // for it, or on a busy machine it lands while the next line types and takes the keystroke.
    await waitFor(() => expect(finish).toHaveFocus());
    // Every change is kept for a reload of the tab.
    await user.type(box('home_org_num'), '5');
    await act(async () => {});
    const draft = JSON.parse(window.sessionStorage.getItem(DRAFT_KEY) ?? '{}');
    expect(draft.values.home_org_num).toBe('5');
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
  });

  it('labels say (optional) in Czech too', async () => {
    renderRequestForm({ lang: 'cs' });
    await findFinish();
    expect(document.querySelector('label[for="home_org_num"]')).toHaveTextContent('(nepovinné)');
    expect(document.querySelector('label[for="home_street"]')).not.toHaveTextContent('(nepovinné)');
  });
});

describe('RequestForm: what people hit (issue 13)', () => {
  it('a failed finish: one message at the top, seen and focused; entries in page order, naming their fields', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const { user } = renderRequestForm({ values: { birth_state: 'CZ' } });
    await user.click(await findFinish());
    const summary = await screen.findByTestId('error-summary');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
    // The alert text is in the summary; no second copy in the alert list on top.
    expect(summary).toHaveTextContent('The form has errors or missing required answers');
    expect(document.querySelectorAll('[data-alert-key="ALERTS.FORM_INVALID"]')).toHaveLength(1);
    expect(document.querySelector('.alert-list [data-alert-key]')).toBeNull();
    const texts = within(summary)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(texts.slice(0, 3)).toEqual([
      'Enter your first name',
      'Enter your last name',
      'Enter your birth surname',
    ]);
    const at = (text: string) => texts.indexOf(text);
    // Country of birth before the place; the contact address before the employer.
    expect(at('Choose your country of birth')).toBe(-1);
    expect(at('Enter your date of birth')).toBeLessThan(at('Enter your place of birth'));
    expect(at('Enter the street of your contact address')).toBeLessThan(at('Enter your current employer'));
    expect(texts.some((t) => t === 'This field is required.' || t?.endsWith('This field is required.'))).toBe(
      false,
    );
    scrollTo.mockRestore();
  });

  it('without prefill the data mailbox is shown but not required for delivery by e-mail', async () => {
    const { user } = renderRequestForm({ values: VALID_VALUES, noPrefill: true });
    const finish = await findFinish();
    expect(box('data_mailbox')).toBeInTheDocument();
    expect(screen.getByText('Data mailbox ID', { selector: 'label' })).toHaveTextContent('(optional)');
    expect(finish).toHaveAttribute('data-state', 'valid');
    // Delivery to the data mailbox makes it required.
    await user.type(box('data_mailbox'), 'abc1234');
    await user.selectOptions(box('delivery_type'), 'DATOVKOU');
    expect(screen.getByText('Data mailbox ID', { selector: 'label' })).not.toHaveTextContent('(optional)');
    await user.clear(box('data_mailbox'));
    expect(finish).toHaveAttribute('data-state', 'invalid');
  });

  it('a typed birthplace goes when the birth country changes between two foreign countries', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    await user.type(box('birth_municipality'), 'München');
    await choose(user, 'birth_state', 'germ');
    // Choosing the first country keeps what was typed before.
    expect(box('birth_municipality')).toHaveValue('München');
    await choose(user, 'birth_state', 'slov');
    expect(box('birth_municipality')).toHaveValue('');
  });

  it('the finish shows that the server is checking the request', async () => {
    let release: () => void = () => {};
    const { user, fetchMock } = renderRequestForm({ values: VALID_VALUES, noPrefill: false });
    const original = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).endsWith('/validate')) {
        await new Promise<void>((r) => {
          release = r;
        });
        return new Response(JSON.stringify({ okDate: true, okDuplications: true }), { status: 200 });
      }
      return original?.(input, init) as Promise<Response>;
    });
    const finish = await findFinish();
    await user.click(finish);
    expect(finish).toHaveTextContent('Checking the request…');
    expect(finish).toHaveAttribute('aria-disabled', 'true');
    expect(finish).toHaveFocus();
    await act(async () => release());
    await screen.findByTestId('confirm-dialog');
    expect(finish).toHaveTextContent('Finish the request');
  });

  it('server findings on fields without a control name their field; the duplicate reason has no "?:"', async () => {
    await submitWith({
      status: 400,
      body: {
        error: {
          code: 'INVALID_FORM',
          message: 'x',
          fields: [
            { path: 'aifo', message: 'pattern' },
            { path: 'send_notifications_phone', message: 'pattern' },
          ],
        },
      },
    });
    const summary = await screen.findByTestId('error-summary');
    expect(summary).toHaveTextContent(
      'AIFO (identifier from the sign-in): the value is not in the correct format',
    );
    expect(summary).toHaveTextContent(
      'Notifications by text message (SMS): the value is not in the correct format',
    );
    expect(summary).not.toHaveTextContent('FORM.FIELDS');
  });

  it('read-only register values look read-only and have no format hint; employment proof is a set of radios', async () => {
    renderRequestForm({
      noPrefill: false,
      values: { birth_date: '1972-02-28', telephone: '777123456' },
      readOnly: ['birth_date', 'telephone'],
    });
    await findFinish();
    expect(box('birth_date')).toHaveAttribute('readonly');
    expect(document.getElementById('birth_date-hint')).toBeNull();
    expect(document.getElementById('telephone-hint')).toBeNull();
    expect(screen.getByRole('radio', { name: "Employer's confirmation" })).toBeChecked();
    expect(box('employer_current_description').tagName).toBe('TEXTAREA');
    // The dial code keeps its code visible first.
    expect((box('dial_code') as unknown as HTMLSelectElement).selectedOptions[0]).toHaveTextContent(
      '+420 (Czech Republic)',
    );
  });
});

describe('RequestForm: a refused or failed send is seen and announced', { timeout: 30000 }, () => {
  it('TIME_NOT_COVERED: a message at the top with focus and a way to the activities', async () => {
    await submitWith({ status: 400, body: { error: { code: 'TIME_NOT_COVERED', message: 'x' } } });
    const notice = await screen.findByTestId('form-notice');
    await waitFor(() => expect(notice).toHaveFocus());
    expect(notice).toHaveAttribute('data-alert-key', 'ALERTS.TIME_NOT_COVERED');
    expect(within(notice).getByRole('link', { name: 'Go to the activities' })).toHaveAttribute(
      'href',
      '#section-activities',
    );
  });

  it('NIA mismatch: a message at the top with focus and the way back to the home page', async () => {
    await submitWith({ status: 400, body: { error: { code: 'NIA_IDENTITY_MISMATCH', message: 'x' } } });
    const notice = await screen.findByTestId('form-notice');
    await waitFor(() => expect(notice).toHaveFocus());
    expect(notice).toHaveAttribute('data-alert-key', 'ALERTS.SSO_MISMATCH');
    expect(within(notice).getByRole('link', { name: 'Go to the home page' })).toBeInTheDocument();
  });
});

describe('RequestForm in duplicate mode', () => {
  it('hides the sections duplicate mode hides; the duplicate types exclude each other', async () => {
    const { user } = renderRequestForm({ duplicate: true });
    await findFinish();
    for (const id of [
      'sex',
      'birth_date',
      'other_citizenships',
      'employer_current_name',
      'add-activity',
      'add-abroad',
    ]) {
      expect(document.getElementById(id) ?? screen.queryByTestId(id)).toBeNull();
    }
    // The contact address starts empty: the permanent one can be copied (issue 28).
    expect(screen.getByTestId('copy-home')).toBeInTheDocument();
    const damaged = screen.getByRole('checkbox', { name: 'Damaged document' });
    const stolen = screen.getByRole('checkbox', { name: 'Lost or stolen document' });
    await user.click(damaged);
    expect(damaged).toBeChecked();
    await user.click(stolen);
    expect(stolen).toBeChecked();
    expect(damaged).not.toBeChecked();
    // Coverage does not count in duplicate mode: only the fields decide.
    expect(screen.queryByTestId('coverage')).toBeNull();
    // The reason's summary entry is a sentence of its own (no "Why do you need a duplicate?: …").
    await user.click(stolen);
    await user.click(screen.getByTestId('finish'));
    const summary = await screen.findByTestId('error-summary');
    expect(
      within(summary).getByRole('link', { name: 'Choose why you need a duplicate' }),
    ).toBeInTheDocument();
    expect(summary).not.toHaveTextContent('?:');
  });

  it('duplicate types come from the server list: its names, and a reason switched off cannot be chosen', async () => {
    renderRequestForm({
      duplicate: true,
      lang: 'cs',
      lists: {
        ...TEST_LISTS,
        duplicateTypes: TEST_LISTS.duplicateTypes.map((d) => ({ ...d, disabled: d.code === 'ODCIZENI' })),
      },
    });
    await findFinish();
    expect(screen.getByRole('checkbox', { name: 'Poškození dokladu' })).toBeEnabled();
    expect(screen.getByRole('checkbox', { name: 'Ztráta nebo odcizení dokladu' })).toBeDisabled();
  });
});

/** A form the browser's rules accept (the server may still reject it), with a second citizenship. */
const COMPLETE: Partial<FormValues> = { ...VALID_VALUES, other_citizenships: ['SK'] };

/** Renders a complete form whose POST /api/ros answers `submit`, finishes and sends it. */
async function submitWith(
  submit: { status: number; body: unknown },
  lang: 'en' | 'cs' = 'en',
  values: Partial<FormValues> = {},
) {
  const view = renderRequestForm({
    lang,
    values: { ...COMPLETE, ...values },
    noPrefill: false,
    api: {
      '/api/ros/validate': { status: 200, body: { okDate: true, okDuplications: true } },
      '/api/ros': submit,
    },
  });
  await openConfirmDialog(view.user);
  await tickRequired(view.user);
  await view.user.click(screen.getByTestId('confirm-submit'));
  await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
  return view;
}

// A whole finish -> confirm -> submit round per test: slower than the default 5 s on a busy machine.
describe('RequestForm: the server rejects fields (400 INVALID_FORM)', { timeout: 30000 }, () => {
  const invalidForm = (fields: unknown) => ({
    status: 400,
    body: { error: { code: 'INVALID_FORM', message: 'The request form is not valid', fields } },
  });

  it('shows each field error, the summary with focus and FORM_INVALID; a changed value clears it', async () => {
    const { user } = await submitWith(
      invalidForm([
        { path: 'citizen_of_1', message: 'pattern' },
        { path: 'other_citizenships.0', message: 'pattern' },
        { path: 'employer_current_from', message: 'monthDateFarFutureDate' },
        { path: 'language', message: 'required' },
      ]),
    );
    const summary = await screen.findByTestId('error-summary');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(document.querySelector('[data-alert-key="ALERTS.FORM_INVALID"]')).not.toBeNull();
    expect(document.querySelector('[data-alert-key="ALERTS.SUBMIT_FORM_ERROR"]')).toBeNull();
    const links = within(summary).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '#citizen_of_1',
      '#other_citizenships',
      '#employer_current_from',
    ]);
    expect(links[0]).toHaveTextContent('Choose your citizenship from the list');
    // A message with no text of its own names the field in the summary.
    expect(links[2]).toHaveTextContent(
      'Employed since (MM/YYYY): The date may be at most 6 months in the future.',
    );
    expect(box('citizen_of_1')).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById('citizen_of_1-error')).toHaveTextContent(
      'Choose your citizenship from the list',
    );
    expect(document.getElementById('other_citizenships-error')).not.toBeNull();
    expect(box('employer_current_from')).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById('employer_current_from-error')).toHaveTextContent(/6 months/);
    expect(screen.getByTestId('finish')).toHaveAttribute('data-state', 'invalid');
    // Nothing was stored: no success view, the answers stay.
    expect(screen.queryByTestId('submit-success')).toBeNull();
    expect(box('first_name')).toHaveValue('Jana');

    // A new value is judged by the browser again: the server's message goes.
    await choose(user, 'citizen_of_1', 'slov');
    expect(box('citizen_of_1')).not.toHaveAttribute('aria-invalid');
    expect(document.getElementById('citizen_of_1-error')).toBeNull();
    await user.clear(box('employer_current_from'));
    await user.type(box('employer_current_from'), '02/2015');
    await user.click(screen.getByRole('button', { name: /Remove Slovakia/ }));
    expect(screen.queryByTestId('error-summary')).toBeNull();
    expect(screen.getByTestId('finish')).toHaveAttribute('data-state', 'valid');
  });

  it("a message key the page does not know shows the spec's unknown-validation-error text, not 'wrong format'", async () => {
    for (const [lang, unknown, wrongFormat] of [
      ['en', 'This value is not valid. Please check it.', /not in the correct format/],
      ['cs', 'Údaj není platný. Zkontrolujte jej prosím.', /nemá správný formát/],
    ] as const) {
      const { unmount } = await submitWith(
        invalidForm([{ path: 'employer_current_name', message: 'someRuleOfANewerServer' }]),
        lang,
      );
      const summary = await screen.findByTestId('error-summary');
      expect(document.getElementById('employer_current_name-error')).toHaveTextContent(unknown);
      expect(within(summary).getByRole('link')).toHaveTextContent(unknown);
      expect(summary).not.toHaveTextContent(wrongFormat);
      unmount();
    }
  });

  it('in Czech too: a row keeps its own path', async () => {
    await submitWith(
      invalidForm([
        { path: 'abroad_stay.0.state', message: 'pattern' },
        { path: 'home_state', message: 'required' },
      ]),
      'cs',
      { abroad_stay: [{ state: 'DE', reason: 'Studium' }] },
    );
    const summary = await screen.findByTestId('error-summary');
    await waitFor(() => expect(summary).toHaveFocus());
    // In page order: the home address comes before the stays abroad.
    const [home, row] = within(summary).getAllByRole('link');
    expect(row).toHaveAttribute('href', '#abroad_stay-0-state');
    expect(row).toHaveTextContent('Pobyt v zahraničí 1: Vyberte stát pobytu ze seznamu');
    expect(home).toHaveTextContent('Vyberte stát trvalého pobytu');
    expect(box('abroad_stay-0-state')).toHaveAttribute('aria-invalid', 'true');
    expect(box('home_state')).toHaveAttribute('aria-invalid', 'true');
    expect(document.querySelector('[data-alert-key="ALERTS.FORM_INVALID"]')).not.toBeNull();
  });

  it('INVALID_FORM naming no field of the form, or another failure: the generic submit error', async () => {
    await submitWith(invalidForm([{ path: 'language', message: 'required' }]));
    await waitFor(() =>
      expect(document.querySelector('[data-alert-key="ALERTS.SUBMIT_FORM_ERROR"]')).not.toBeNull(),
    );
    expect(screen.queryByTestId('error-summary')).toBeNull();
    expect(screen.getByTestId('finish')).toHaveAttribute('data-state', 'valid');
  });

  it('TIME_NOT_COVERED from the server shows that alert', async () => {
    await submitWith({
      status: 400,
      body: { error: { code: 'TIME_NOT_COVERED', message: 'The last 60 months are not covered' } },
    });
    await waitFor(() =>
      expect(document.querySelector('[data-alert-key="ALERTS.TIME_NOT_COVERED"]')).not.toBeNull(),
    );
    expect(document.querySelector('[data-alert-key="ALERTS.SUBMIT_FORM_ERROR"]')).toBeNull();
  });

  it('NIA_IDENTITY_MISMATCH from the server says the request does not match the sign-in', async () => {
    await submitWith({
      status: 400,
      body: {
        error: {
          code: 'NIA_IDENTITY_MISMATCH',
          message: 'The request is not the signed-in person',
          fields: [{ path: 'first_name', message: 'niaMismatch' }],
        },
      },
    });
    await waitFor(() =>
      expect(document.querySelector('[data-alert-key="ALERTS.SSO_MISMATCH"]')).not.toBeNull(),
    );
    expect(document.querySelector('[data-alert-key="ALERTS.SUBMIT_FORM_ERROR"]')).toBeNull();
  });
});

describe('RequestForm tooltips', () => {
  it('info buttons beside the labels of fields whose meaning is not obvious', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    for (const field of ['birth_number', 'document_number', 'data_mailbox', 'delivery_type']) {
      const label = document.querySelector(`label[for="${field}"]`)?.firstChild?.textContent ?? '';
      const button = screen.getByRole('button', { name: `Help: ${label}` });
      expect(button.getAttribute('aria-describedby')).toBeTruthy();
    }
    const info = screen.getByRole('button', { name: 'Help: How the employment is proven' });
    expect(info).toHaveAccessibleDescription(/How you will prove your current employment/);
    await user.hover(info);
    expect(screen.getByRole('tooltip')).toHaveTextContent(/confirmation from your employer/);
    // The hint under the label stays (phones cannot hover).
    expect(document.getElementById('data_mailbox-hint')).toHaveTextContent('7 letters and digits.');
  });

  it('the finish button explains its state; remove buttons say what they remove', async () => {
    const { user } = renderRequestForm({ lang: 'cs' });
    const finish = await findFinish();
    expect(finish).toHaveAccessibleDescription(/Některé údaje chybí nebo nejsou správně/);
    await user.click(screen.getByTestId('add-activity'));
    const remove = screen.getByRole('button', { name: 'Odebrat činnost 1' });
    expect(remove).toHaveAccessibleDescription('Odebere tuto činnost i se vším, co jste do ní vyplnili.');
  });

  it('a valid form: the finish button has no tooltip', async () => {
    renderRequestForm({ values: COMPLETE, noPrefill: false });
    const finish = await findFinish();
    expect(finish).toHaveAttribute('data-state', 'valid');
    expect(finish).not.toHaveAttribute('aria-describedby');
  });
});

describe('monthRanges', () => {
  it('joins consecutive months', () => {
    expect(
      monthRanges([
        { year: 2020, month: 4 },
        { year: 2020, month: 5 },
        { year: 2020, month: 6 },
        { year: 2021, month: 1 },
      ]),
    ).toEqual(['04/2020–06/2020', '01/2021']);
  });
});
