import {
  type Catalogue,
  defaultFormValues,
  type FormValues,
  type Municipality,
  type PrefillField,
  type SearchAnswer,
} from '@ros/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startFromPerson } from '../form/prefillStart';
import { RequestForm } from '../form/RequestForm';
import type { ReferenceLists } from '../form/reference';
import { type RenderAppOptions, renderApp } from './render';

/**
 * Step 2 of the request form in unit tests: small pick lists, a complete set of values and the
 * render call, written once for RequestForm.test.tsx and ConfirmDialog.test.tsx. Each test file
 * still mocks './botcheck' itself (vi.mock is per file).
 */

export type User = ReturnType<typeof userEvent.setup>;

/** A few municipalities: GET /api/ros/municipalities, fetched by the birth municipality box. */
export const TEST_MUNICIPALITIES: Municipality[] = [
  { code: '582786', name: 'Brno', long_name: 'Brno', district: '40711' },
  { code: '554782', name: 'Praha', long_name: 'Praha', district: '40924' },
  { code: '500011', name: 'Žďár', long_name: 'Žďár (Blansko)', district: '40703' },
];

/** A few entries of each pick list: enough for every reaction the tests drive. */
export const TEST_LISTS: ReferenceLists = {
  countries: [
    { code: 'CZ', code_csu: '203', name_cz: 'Česká republika', name_en: 'Czech Republic' },
    { code: 'DE', code_csu: '276', name_cz: 'Německo', name_en: 'Germany' },
    { code: '##', code_csu: '000', name_cz: 'Bez státní příslušnosti', name_en: 'Stateless' },
    { code: 'SK', code_csu: '703', name_cz: 'Slovensko', name_en: 'Slovakia' },
  ],
  districts: [
    { code: '40711', name: 'Brno-město' },
    { code: '40924', name: 'Praha' },
    { code: '40703', name: 'Blansko' },
  ],
  deliveryTypes: [
    { code: 'DATOVKOU', name_cz: 'Do datové schránky', name_en: 'To a data mailbox' },
    { code: 'EMAIL', name_cz: 'E-mailem', name_en: 'By e-mail' },
  ],
  documentTypes: [
    { code: 'OP_CR', name_cz: 'Občanský průkaz ČR', name_en: 'Czech identity card' },
    { code: 'PAS', name_cz: 'Cestovní pas', name_en: 'Passport' },
  ],
  verificationTypes: [
    { code: 'OSVEDCENI1', name_cz: 'Potvrzení zaměstnavatele', name_en: "Employer's confirmation" },
  ],
  dialCodes: [{ code: '+420', name_cz: 'Česká republika', name_en: 'Czech Republic' }],
  duplicateTypes: [
    { code: 'POSKOZENI', name_cz: 'Poškození dokladu', name_en: 'Damaged document', disabled: false },
    { code: 'ODCIZENI', name_cz: 'Ztráta nebo odcizení dokladu', name_en: 'Lost or stolen document' },
  ],
  activityTypes: [
    { code: '1', name_cz: 'Zaměstnání', name_en: 'Employment' },
    { code: '2', name_cz: 'Studium', name_en: 'Education' },
    { code: '3', name_cz: 'Jiné', name_en: 'Other' },
  ],
};

/** What the pick-list calls answer in tests that render the whole app (renderApp's `api`). */
export const TEST_LIST_ANSWERS: Record<string, { status: number; body: unknown }> = {
  '/api/ros/countries': { status: 200, body: TEST_LISTS.countries },
  '/api/ros/municipalities': { status: 200, body: TEST_MUNICIPALITIES },
  '/api/ros/districts': { status: 200, body: TEST_LISTS.districts },
  '/api/ros/delivery-types': { status: 200, body: TEST_LISTS.deliveryTypes },
  '/api/ros/document-types': { status: 200, body: TEST_LISTS.documentTypes },
  '/api/ros/verification-types': { status: 200, body: TEST_LISTS.verificationTypes },
  '/api/ros/dial-codes': { status: 200, body: TEST_LISTS.dialCodes },
  '/api/ros/activity-types': { status: 200, body: TEST_LISTS.activityTypes },
  '/api/ros/duplicate-types': { status: 200, body: TEST_LISTS.duplicateTypes },
};

/** A form the browser's rules accept in normal mode (covered since 01/2015); the server may still reject it. */
export const VALID_VALUES: Partial<FormValues> = {
  first_name: 'Jana',
  last_name: 'Nová',
  birth_name: 'Nová',
  sex: '2',
  birth_date: '1990-03-05',
  birth_state: 'DE',
  birth_municipality: 'München',
  citizen_of_1: 'DE',
  document_type: 'PAS',
  document_number: 'C01X00T47',
  home_street: 'Dlouhá',
  home_city: 'Brno',
  home_zip: '60200',
  home_state: 'CZ',
  contact_street: 'Dlouhá',
  contact_city: 'Brno',
  contact_zip: '60200',
  contact_state: 'CZ',
  email: 'jana@example.cz',
  delivery_type: 'EMAIL',
  employer_current_name: 'Letiště',
  employer_current_from: '01/2015',
  employer_current_description: 'Odbavení',
};

export interface RequestFormOptions {
  /** On top of the empty form (`defaultFormValues()`). */
  values?: Partial<FormValues>;
  readOnly?: PrefillField[];
  /** Filled without a document (default true). */
  noPrefill?: boolean;
  dataMailboxDelivery?: boolean;
  /** English unless told (`?lang=en`). */
  lang?: 'en' | 'cs';
  duplicate?: boolean;
  /** API answers, as for renderApp. */
  api?: RenderAppOptions['api'];
  /** Pick lists (TEST_LISTS unless told). */
  lists?: ReferenceLists;
  /** A register person the search found: the start is the browser's prefill of them (the options above are not used). */
  person?: SearchAnswer;
  /** The field catalogue (FIELDS unless told: a test's with a field more) and the texts it needs. */
  catalogue?: Catalogue;
  texts?: RenderAppOptions['texts'];
}

/** Renders step 2 in the whole shell, with no draft of an earlier test; returns the view and a user. */
export function renderRequestForm(opts: RequestFormOptions = {}) {
  window.sessionStorage.clear();
  const user = userEvent.setup();
  const view = renderApp({
    path: opts.lang === 'cs' ? '/form' : '/form?lang=en',
    api: { '/api/ros/municipalities': { status: 200, body: TEST_MUNICIPALITIES }, ...opts.api },
    ...(opts.texts ? { texts: opts.texts } : {}),
    children: (
      <RequestForm
        {...(opts.catalogue ? { catalogue: opts.catalogue } : {})}
        duplicate={opts.duplicate ?? false}
        lists={opts.lists ?? TEST_LISTS}
        onExit={() => {}}
        start={
          opts.person
            ? startFromPerson(opts.person, opts.duplicate ?? false)
            : {
                values: { ...defaultFormValues(), ...opts.values },
                readOnly: opts.readOnly ?? [],
                noPrefill: opts.noPrefill ?? true,
                dataMailboxDelivery: opts.dataMailboxDelivery ?? false,
              }
        }
      />
    ),
  });
  return { user, ...view };
}

const sectionsShown = () => document.querySelector('form[data-shown]')?.getAttribute('data-shown') ?? null;

/**
 * Step 2's finish button. It comes with the last section, and the sections arrive one per task
 * (form/request/useReveal.ts), the later the busier the machine: so this waits as long as the
 * form says another section has arrived (its `data-shown`), and fails only when none has for a
 * whole waiting time (`timeout`, else the setup's asyncUtilTimeout): a form that stopped, not a
 * slow one. `timeout` also bounds the wait for the form itself (a lazy chunk, a session call).
 */
export async function findFinish(timeout?: number): Promise<HTMLElement> {
  let shown = sectionsShown();
  for (;;) {
    try {
      return await screen.findByTestId('finish', {}, timeout === undefined ? {} : { timeout });
    } catch (error) {
      const now = sectionsShown();
      if (now === shown) throw error;
      shown = now;
    }
  }
}

/** Clicks the finish button (once the form shows) and waits for the confirmation dialog. */
export async function openConfirmDialog(user: User): Promise<HTMLElement> {
  await user.click(await findFinish());
  return screen.findByTestId('confirm-dialog');
}

/** Ticks the three required declarations of the open confirmation dialog. */
export async function tickRequired(user: User): Promise<void> {
  for (const id of ['confirm-signature', 'confirm-affidavit', 'confirm-purpose']) {
    await user.click(screen.getByTestId(id));
  }
}
