import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findFinish, renderRequestForm } from '../test/requestForm';

// The bot check loads the ALTCHA web component, which jsdom cannot run.
vi.mock('./botcheck', () => ({
  getBotToken: vi.fn(async () => 't'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
}));

// Counts the renders of two sections the typing below does not touch.
const renders = vi.hoisted(() => ({ employer: 0, contact: 0 }));
vi.mock('./request/sections/EmployerSection', async (original) => {
  const m = await original<typeof import('./request/sections/EmployerSection')>();
  return {
    ...m,
    EmployerSection: () => {
      renders.employer++;
      return m.EmployerSection();
    },
  };
});
vi.mock('./request/sections/ContactSection', async (original) => {
  const m = await original<typeof import('./request/sections/ContactSection')>();
  return {
    ...m,
    ContactSection: () => {
      renders.contact++;
      return m.ContactSection();
    },
  };
});

// Counts the renders of each catalogue control, by its path (a row's cells).
const cells = vi.hoisted(() => new Map<string, number>());
vi.mock('./request/CatalogueField', async (original) => {
  const m = await original<typeof import('./request/CatalogueField')>();
  return {
    ...m,
    CatalogueField: (props: Parameters<typeof m.CatalogueField>[0]) => {
      cells.set(props.path, (cells.get(props.path) ?? 0) + 1);
      return m.CatalogueField(props);
    },
  };
});

const box = (id: string) => document.getElementById(id) as HTMLInputElement;

describe('step 2 renders (issue 14)', { timeout: 30000 }, () => {
  beforeEach(() => {
    renders.employer = 0;
    renders.contact = 0;
  });

  it('typing in a field re-renders no other section, the first keystroke included', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    await waitFor(() => expect(renders.employer).toBeGreaterThan(0));
    renders.employer = 0;
    renders.contact = 0;
    // The first change makes the form "changed" (the leave question): a render of the form itself.
    await user.type(box('first_name'), 'Jana');
    await user.type(box('last_name'), 'Nová');
    expect(box('first_name')).toHaveValue('Jana');
    expect(renders).toEqual({ employer: 0, contact: 0 });
  });

  it('typing in a cell of a row re-renders no other cell; its type re-renders the row', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    await user.click(box('add-activity'));
    await user.type(box('past_activities-0-field1'), 'A');
    cells.clear();
    await user.type(box('past_activities-0-field1'), 'CME');
    expect(box('past_activities-0-field1')).toHaveValue('ACME');
    expect(cells.get('past_activities.0.from') ?? 0).toBe(0);
    // Field2's label and state follow the type: the row renders with it.
    await user.selectOptions(box('past_activities-0-type'), '2');
    expect(cells.get('past_activities.0.field2') ?? 0).toBeGreaterThan(0);
    expect(document.querySelector('label[for="past_activities-0-field2"]')?.textContent).toMatch(
      /Field of study/,
    );
  });
});
