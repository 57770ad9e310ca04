import { type Catalogue, FIELDS } from '@ros/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { findFinish, renderRequestForm } from '../test/requestForm';

vi.mock('./botcheck', () => ({
  getBotToken: vi.fn(async () => 't'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
}));

/**
 * The catalogue is the whole field, on the page too (issue 34): a field added to the catalogue
 * and to its texts, and nowhere else, is a box of its section at its place, labelled, of its
 * kind's control and length, "(optional)" while its entry does not require it, and checked by
 * its entry's rules on Finish. The server's half (the check, storage, the PDF read back, the CSV,
 * the intake API) is packages/server/src/requests/catalogueField.test.ts, with the same field.
 */
const catalogue: Catalogue = {
  ...FIELDS,
  // The applicant's pet, asked in the contact section: required, but only with a telephone.
  pet_name: {
    kind: 'text',
    maxLength: 20,
    section: 'contact',
    required: true,
    enabled: (v) => v.telephone.trim() !== '',
  },
};
const texts = {
  'FORM.FIELDS.pet_name': 'Name of your pet',
  'FORM.ERRORS.FIELD.pet_name.required': 'Enter the name of your pet',
};

const box = (id: string) => document.getElementById(id) as HTMLInputElement;
/** The label of a box, as the page shows it. */
const labelOf = (id: string) => document.querySelector(`label[for="${id}"]`)?.textContent ?? '';

describe('a field added to the catalogue: the page', () => {
  it('is a box of its section at its place, "(optional)" until its entry requires it', async () => {
    const { user } = renderRequestForm({ catalogue, texts });
    await findFinish();
    const section = document.getElementById('section-contact') as HTMLElement;
    const input = within(section).getByLabelText(/Name of your pet/);
    expect(input).toBe(box('pet_name'));
    // A text of its entry's length, last in its section (its place in the catalogue).
    expect(input).toHaveAttribute('maxlength', '20');
    const boxes = [...section.querySelectorAll('input, select, textarea')].map((e) => e.id);
    expect(boxes.at(-1)).toBe('pet_name');
    // Not required without a telephone.
    expect(labelOf('pet_name')).toMatch(/\(optional\)/);
    await user.type(box('telephone'), '777123456');
    expect(labelOf('pet_name')).not.toMatch(/\(optional\)/);
    // Only in this catalogue: the app's own form has no such box.
    expect(FIELDS).not.toHaveProperty('pet_name');
  });

  it('is checked by its entry on Finish: its message under it and in the summary', async () => {
    const { user } = renderRequestForm({ catalogue, texts, values: { telephone: '777123456' } });
    await user.click(await findFinish());
    expect(await screen.findAllByText('Enter the name of your pet')).toHaveLength(2);
    expect(box('pet_name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('is not in the app’s own form', async () => {
    renderRequestForm();
    await findFinish();
    expect(box('pet_name')).toBeNull();
  });
});

/**
 * The kinds that are not a box or a select have their widget by kind, not by a section's hand
 * (issue 34): three fields of those kinds added to the contact section, whose component names
 * none of them, get a date box, chips and checkboxes.
 */
const widgets: Catalogue = {
  ...FIELDS,
  pet_birthday: { kind: 'date', maxLength: 10, section: 'contact' },
  pet_countries: {
    kind: 'items',
    maxItems: 3,
    item: { kind: 'country', maxLength: 2 },
    section: 'contact',
  },
  pet_activities: {
    kind: 'items',
    maxItems: 3,
    item: { kind: 'list', list: 'activity-types', maxLength: 2 },
    section: 'contact',
    required: true,
  },
};
const widgetTexts = {
  'FORM.FIELDS.pet_birthday': 'Pet birthday',
  'FORM.FIELDS.pet_countries': 'Pet countries',
  'FORM.FIELDS.pet_activities': 'Pet activities',
};

describe('fields of the other kinds: their widget by kind', () => {
  it('a date is typed d.m.yyyy and completed, optional unless required', async () => {
    const { user } = renderRequestForm({ catalogue: widgets, texts: widgetTexts });
    await findFinish();
    const section = document.getElementById('section-contact') as HTMLElement;
    const date = within(section).getByLabelText(/Pet birthday/);
    expect(labelOf('pet_birthday')).toMatch(/\(optional\)/);
    expect(date).not.toHaveAttribute('aria-required');
    await user.type(date, '5.3.2020');
    await user.tab();
    expect(date).toHaveValue('05.03.2020');
    // The birth date keeps its own autocomplete and is required.
    expect(box('birth_date')).toHaveAttribute('autocomplete', 'bday');
    expect(box('birth_date')).toHaveAttribute('aria-required', 'true');
  });

  it('a list of countries is chips; a list of codes is checkboxes of its list, required by its entry', async () => {
    const { user } = renderRequestForm({ catalogue: widgets, texts: widgetTexts });
    await findFinish();
    const section = document.getElementById('section-contact') as HTMLElement;
    await user.type(box('pet_countries'), 'Germ');
    await user.keyboard('{Enter}');
    const chosen = document.getElementById('pet_countries-chosen') as HTMLElement;
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringMatching(/^Germany/)]);
    const group = within(section).getByRole('group', { name: /Pet activities/ });
    expect(group).not.toHaveTextContent('(optional)');
    const boxes = ['Employment', 'Education', 'Other'].map((name) =>
      within(group).getByRole('checkbox', { name }),
    );
    expect(within(group).getAllByRole('checkbox')).toEqual(boxes);
    await user.click(boxes[0] as HTMLElement);
    await user.click(boxes[2] as HTMLElement);
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([true, false, true]);
  });
});

/**
 * A list of rows is its kind's widget too (RowsField): a column added to the activities' entry
 * is a cell of every row, of its kind and length, and the entry's `maxItems` bounds the list.
 */
const rows: Catalogue = {
  ...FIELDS,
  past_activities: {
    ...FIELDS.past_activities,
    maxItems: 2,
    columns: { ...FIELDS.past_activities.columns, town: { kind: 'text', maxLength: 30 } },
  },
};

describe('a list of rows: its cells and its length from the entry', () => {
  it('a column added to the entry is a cell of each row; the list stops at maxItems', async () => {
    const { user } = renderRequestForm({ catalogue: rows, texts: { 'FORM.ACTIVITY.TOWN': 'Town' } });
    await findFinish();
    const section = document.getElementById('section-activities') as HTMLElement;
    await user.click(within(section).getByRole('button', { name: 'Add an activity' }));
    // The new row's first cell has the focus; the added column is its last cell.
    expect(document.activeElement).toBe(box('past_activities-0-from'));
    const [row] = within(section).getAllByTestId('activity-row');
    const town = within(row as HTMLElement).getByLabelText(/Town/);
    expect(town).toBe(box('past_activities-0-town'));
    expect(town).toHaveAttribute('maxlength', '30');
    await user.click(within(section).getByRole('button', { name: 'Add an activity' }));
    expect(within(section).getAllByTestId('activity-row')).toHaveLength(2);
    expect(within(section).queryByRole('button', { name: 'Add an activity' })).toBeNull();
    expect(section).toHaveTextContent('You can list at most 2 activities.');
  });
});
