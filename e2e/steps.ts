import { readFile } from 'node:fs/promises';
import { type Download, expect, type Locator, type Page, test } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Steps every request-form test takes: open the form, search a demo person (README, "People"),
 * fill without a document, pick a combobox option, confirm and send. Written once here,
 * exported by fixtures.ts.
 */

export type Lang = 'cs' | 'en';

/** A path in the given language (Czech is the default, English adds `?lang=en`). */
export const url = (path: string, lang: Lang): string => (lang === 'en' ? `${path}?lang=en` : path);

/** The form's address: `/form`, or the duplicate form (`/duplikat/form`, `/duplicate/form`). */
export const formUrl = (lang: Lang, duplicate = false): string =>
  url(duplicate ? (lang === 'en' ? '/duplicate/form' : '/duplikat/form') : '/form', lang);

/** Labels of the search step (step 1). */
export const SEARCH_TEXT = {
  cs: {
    first: 'Jméno',
    last: 'Příjmení',
    type: 'Typ dokladu',
    number: 'Číslo dokladu',
    birthNumber: 'Rodné číslo',
    OP_CR: 'Občanský průkaz ČR',
    PAS: 'Cestovní pas',
    search: 'Vyhledat',
    retry: 'Vyhledat podle rodného čísla',
    found: 'Našli jsme vás v registru',
    without: 'Vyplnit žádost ručně',
    manual: 'Ruční vyplnění žádosti',
  },
  en: {
    first: 'First name',
    last: 'Last name',
    type: 'Document type',
    number: 'Document number',
    birthNumber: 'Birth number',
    OP_CR: 'Czech identity card',
    PAS: 'Passport',
    search: 'Search',
    retry: 'Search by birth number',
    found: 'We found you in the register',
    without: 'Fill in the form by hand',
    manual: 'Filling in the form by hand',
  },
} as const;

export interface Person {
  first: string;
  last: string;
  /** Document type code; identity card when left out. */
  type?: 'OP_CR' | 'PAS';
  number: string;
  birthNumber?: string;
}

/** The demo people of the README ("People"). */
export const PEOPLE = {
  /** Czech citizen, every field filled; valid certificate. */
  dvorak: { first: 'Štěpán', last: 'Dvořák', number: '123456789', birthNumber: '850315/1008' },
  /** No certificate: the duplicate search asks for the birth number. */
  prochazka: { first: 'Karel', last: 'Procházka', number: '234567890', birthNumber: '780704/1000' },
  /** Data mailbox, delivery DATOVKOU; passport. */
  horak: { first: 'Martin', last: 'Horák', type: 'PAS', number: '45123456', birthNumber: '720228/1009' },
  /** Foreign citizen (PL) born abroad, no birth number; passport. */
  kowalska: { first: 'Anna', last: 'Kowalska', type: 'PAS', number: 'EA1234567' },
  /** Born 1950, 9-digit birth number; expired certificate. */
  vesely: { first: 'Josef', last: 'Veselý', number: '345678901', birthNumber: '500412/123' },
  /** Woman (month + 50), second citizenship SK. */
  markova: { first: 'Eva', last: 'Marková', number: '456789012', birthNumber: '905512/1009' },
  /** Past activities leave a gap 07/2021-12/2023. */
  kral: { first: 'Tomáš', last: 'Král', number: '567890123', birthNumber: '880911/1003' },
  /** Not in the register. */
  nobody: { first: 'Nikdo', last: 'Neexistuje', number: '000000000' },
} as const satisfies Record<string, Person>;

/** Fills the search step's boxes (the page must show it); does not send. */
export async function fillSearch(page: Page, lang: Lang, person: Person): Promise<void> {
  const x = SEARCH_TEXT[lang];
  await page.getByLabel(x.first, { exact: true }).fill(person.first);
  await page.getByLabel(x.last, { exact: true }).fill(person.last);
  await page.getByLabel(x.type).selectOption({ label: x[person.type ?? 'OP_CR'] });
  await page.getByLabel(x.number).fill(person.number);
}

/** Fills the search step's boxes (the page must show it) and sends them; does not wait for the answer. */
export async function submitSearch(page: Page, lang: Lang, person: Person): Promise<void> {
  await fillSearch(page, lang, person);
  await page.getByTestId('search-submit').click();
}

/** Opens the form (or the duplicate form), fills the search and sends it; does not wait for the answer. */
export async function searchPerson(
  page: Page,
  lang: Lang,
  person: Person,
  options: { duplicate?: boolean } = {},
): Promise<void> {
  await page.goto(formUrl(lang, options.duplicate));
  await submitSearch(page, lang, person);
}

/**
 * On the search step already shown: searches a person who is not in the register and goes on
 * without a document; returns the finish button.
 */
export async function continueWithoutDocument(page: Page, lang: Lang): Promise<Locator> {
  await submitSearch(page, lang, PEOPLE.nobody);
  await page.getByRole('button', { name: SEARCH_TEXT[lang].without }).click({ timeout: 20000 });
  const finish = page.getByTestId('finish');
  await expect(finish).toBeVisible();
  return finish;
}

/** Opens the form (or the duplicate form) and goes on without a document; returns the finish button. */
export async function fillWithoutDocument(
  page: Page,
  lang: Lang,
  options: { duplicate?: boolean } = {},
): Promise<Locator> {
  await page.goto(formUrl(lang, options.duplicate));
  return continueWithoutDocument(page, lang);
}

/**
 * Searches a demo person (Štěpán Dvořák unless told) and waits for the prefilled step 2;
 * returns the finish button.
 */
export async function openPrefilledForm(
  page: Page,
  lang: Lang,
  person: Person = PEOPLE.dvorak,
  options: { duplicate?: boolean } = {},
): Promise<Locator> {
  await searchPerson(page, lang, person, options);
  // The search solves an ALTCHA challenge first.
  return passEarlyRefusal(page, 20000);
}

/**
 * Waits for step 2 after a search that found the person (or a NIA sign-in); when the told-early
 * notice comes first (issue 36: a certificate valid for long, or a request of an earlier test in
 * this run), goes on past it. Returns the finish button.
 */
export async function passEarlyRefusal(page: Page, timeout = 30000): Promise<Locator> {
  const finish = page.getByTestId('finish');
  const early = page.getByTestId('early-refusal');
  await expect(finish.or(early)).toBeVisible({ timeout });
  if (await early.isVisible()) await early.getByTestId('early-refusal-continue').click();
  await expect(finish).toBeVisible({ timeout });
  return finish;
}

/** Chooses an option of a combobox by typing its start and pressing Enter. */
export async function chooseOption(page: Page, id: string, typed: string): Promise<void> {
  const box = page.locator(`#${id}`);
  await box.fill(typed);
  await expect(page.getByTestId(`${id}-panel`).getByRole('option').first()).toBeVisible();
  await box.press('Enter');
}

/** Ticks the three required declarations of the open confirmation dialog. */
export async function tickDeclarations(page: Page): Promise<void> {
  for (const id of ['signature', 'affidavit', 'purpose']) await page.getByTestId(`confirm-${id}`).check();
}

/**
 * The five sentences the open confirmation dialog shows beside its boxes, in its order (issue 22:
 * the PDF must print them word for word), whitespace collapsed.
 */
export async function dialogSentences(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const id of ['signature', 'affidavit', 'purpose', 'email', 'phone']) {
    const item = page.locator('.choice-item', { has: page.getByTestId(`confirm-${id}`) });
    out.push(normaliseSpace((await item.textContent()) ?? ''));
  }
  return out;
}

/** Whitespace collapsed to single spaces (a PDF's line breaks are spaces to a reader). */
export const normaliseSpace = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * Clicks the confirmation dialog's send button and waits for the success screen with its heading
 * (`successHeading`) focused; returns that screen, the reference it shows and the PDF download
 * the sending starts (listened for before the click).
 */
export async function sendRequest(
  page: Page,
  send: Locator,
  successHeading: string,
): Promise<{ success: Locator; reference: string; download: Promise<Download> }> {
  const download = page.waitForEvent('download', { timeout: 60000 });
  await send.click();
  const success = page.getByTestId('submit-success');
  await test.step('submit', () => expect(success).toBeVisible({ timeout: 60000 }));
  await expect(page.getByRole('heading', { name: successHeading })).toBeFocused();
  const reference = (await page.getByTestId('submit-reference').textContent())?.match(/ROS-\d{4}-\d{6}/)?.[0];
  expect(reference).toBeTruthy();
  return { success, reference: reference as string, download };
}

/** The text of a downloaded PDF, page by page (pdf.js), to check what it says. */
export async function pdfText(path: string): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(await readFile(path)) }).promise;
  let out = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    out += `${content.items.map((it) => ('str' in it ? it.str : '')).join(' ')}\n`;
  }
  await doc.destroy();
  return out;
}
